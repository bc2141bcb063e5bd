import type { UseQueryResult } from '@tanstack/react-query';
import type { SavepointInspection } from '../core/flink';
import type { InspectorFailure } from '../worker';
import { FailurePanel } from './components/failure-panel';
import { Unavailable } from './components/unavailable';
import type { HashRoute } from './state/use-hash-route';
import { OverviewView } from './views/overview-view';
import { StateView } from './views/state-view';

export function ViewSwitch({ route, inspection }: { route: HashRoute; inspection: UseQueryResult<SavepointInspection, InspectorFailure> }) {
  if (inspection.isError) return <FailurePanel failure={inspection.error} context="reading the savepoint" />;
  if (!inspection.data) return null;
  const data = inspection.data;
  switch (route.view) {
    case 'overview':
      return <OverviewView inspection={data} />;
    case 'state':
      return <StateView inspection={data} params={route.params} />;
    case 'compat':
      return <Unavailable title="Compatibility" needs="the compatibility evaluator (src/core/compat)" />;
    case 'diff':
      return <Unavailable title="Schema diff" needs="the schema diff model (src/core/compat)" />;
    case 'values':
      return <Unavailable title="Values" needs="the state entry reader (readStateEntries)" />;
    case 'unknown':
      return <Unavailable title="Unknown fields" needs="the Protobuf structural scan (src/core/protobuf)" />;
    case 'aliasing':
      return <Unavailable title="Aliasing memory" needs="the Protobuf aliasing model (src/core/protobuf)" />;
  }
}
