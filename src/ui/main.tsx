import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connectWorkerInspector } from '../worker';
import { App } from './app';
import { InspectorProvider } from './inspector-context';
import { registerServiceWorker } from './offline/register-service-worker';
import './styles.css';

const { inspector } = connectWorkerInspector();
registerServiceWorker();
const queryClient = new QueryClient({ defaultOptions: { queries: { refetchOnWindowFocus: false } } });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <InspectorProvider inspector={inspector}>
        <App />
      </InspectorProvider>
    </QueryClientProvider>
  </StrictMode>,
);
