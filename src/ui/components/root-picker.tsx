import { useQuery } from '@tanstack/react-query';
import type { ReportState } from '../../core/report';
import type { InspectorFailure } from '../../worker';
import { useInspector } from '../inspector-context';
import { useAppStore } from '../state/app-store';

/**
 * In place of a state whose root message the new schema lacks (NEW_ROOT_MISSING): which message of
 * the new schema the new job keeps this state in. The choice re-runs the check for this state only
 * (the CLI's `--root OP/STATE=NAME`); the other states keep their own verdicts.
 */
export function RootPicker({ state }: { state: ReportState }) {
  const inspector = useInspector();
  const inputHash = useAppStore((s) => s.session?.inputHash);
  const options = useAppStore((s) => s.checkOptions);
  const set = useAppStore((s) => s.set);
  const key = `${state.operator}/${state.state}`;
  // shown where the root is missing, and where the user picked one (so the pick can be undone)
  const missing = [...state.findings, ...(state.planningAid?.findings ?? [])].some((f) => f.ruleId === 'NEW_ROOT_MISSING');
  const picked = options.newRoots?.[key];
  const messages = useQuery<string[], InspectorFailure>({
    enabled: missing || picked !== undefined,
    queryKey: ['session', inputHash, 'new-schema-messages'],
    staleTime: Infinity,
    retry: false,
    queryFn: () => inspector.listNewSchemaMessages(),
  });
  if (!missing && picked === undefined) return null;
  const pick = (root: string) => {
    const newRoots = { ...options.newRoots };
    if (root === '') delete newRoots[key];
    else newRoots[key] = root;
    set({ checkOptions: { ...options, newRoots } });
  };
  return (
    <div className={`callout ${missing ? 'bad' : ''} root-picker`} data-testid="root-picker">
      {missing ? (
        <p>
          The new schema has no message <span className="mono">{state.newRoot}</span>, so this state has nothing to be restored into. If the new job keeps it in
          another message, pick that message; otherwise add the type back to the schema.
        </p>
      ) : (
        <p>Checked with the new root message you picked for this state.</p>
      )}
      <label>
        New root message of <span className="mono">{state.state}</span>{' '}
        <select value={options.newRoots?.[key] ?? ''} onChange={(e) => pick(e.currentTarget.value)} disabled={!messages.data} data-testid="root-picker-select">
          <option value="">
            {picked !== undefined
              ? `the saved root (${state.savedRoot})`
              : messages.data
                ? `choose one of ${messages.data.length} messages`
                : messages.isError
                  ? 'the messages could not be listed'
                  : 'listing the messages…'}
          </option>
          {(messages.data ?? []).map((m) => (
            <option key={m} value={m}>
              {m}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}
