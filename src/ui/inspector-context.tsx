import { createContext, useContext, type ReactNode } from 'react';
import type { Inspector } from '../worker';

const InspectorContext = createContext<Inspector | null>(null);

export function InspectorProvider({ inspector, children }: { inspector: Inspector; children: ReactNode }) {
  return <InspectorContext.Provider value={inspector}>{children}</InspectorContext.Provider>;
}

export function useInspector(): Inspector {
  const inspector = useContext(InspectorContext);
  if (inspector === null) throw new Error('useInspector outside InspectorProvider');
  return inspector;
}
