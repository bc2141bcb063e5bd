import type { UseQueryResult } from '@tanstack/react-query';
import type { SavepointInspection } from '../core/flink';
import type { InspectorFailure } from '../worker';
import { FailurePanel } from './components/failure-panel';
import { AliasingView } from './views/aliasing-view';
import { CompareView } from './views/compare-view';
import { CompatView } from './views/compat-view';
import { DiffView } from './views/diff-view';
import { UnknownFieldsView } from './views/unknown-fields-view';
import { ValuesView } from './views/values-view';
import type { HashRoute } from './state/use-hash-route';
import { OverviewView } from './views/overview-view';
import { QueryView } from './views/query-view';
import { StateView } from './views/state-view';

export function ViewSwitch({ route, inspection }: { route: HashRoute; inspection: UseQueryResult<SavepointInspection, InspectorFailure> }) {
  if (inspection.isError) return <FailurePanel failure={inspection.error} context="reading the savepoint" onRetry={() => void inspection.refetch()} />;
  if (!inspection.data) return null;
  const data = inspection.data;
  switch (route.view) {
    case 'overview':
      return <OverviewView inspection={data} />;
    case 'state':
      return <StateView inspection={data} params={route.params} />;
    case 'compat':
      return <CompatView params={route.params} />;
    case 'diff':
      return <DiffView params={route.params} />;
    case 'values':
      return <ValuesView inspection={data} params={route.params} />;
    case 'unknown':
      return <UnknownFieldsView inspection={data} params={route.params} />;
    case 'aliasing':
      return <AliasingView inspection={data} params={route.params} />;
    case 'query':
      return <QueryView inspection={data} />;
    case 'compare':
      return <CompareView />;
  }
}
