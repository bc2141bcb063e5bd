import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState, type DragEvent } from 'react';
import { readDroppedEntries, toInspectorFailure, type InputFile } from '../worker';
import { FailurePanel } from './components/failure-panel';
import { KeyboardHelp } from './components/keyboard-help';
import { NavBar } from './components/nav-bar';
import { ProgressBar } from './components/progress-bar';
import { SavepointPicker } from './components/savepoint-picker';
import { StartPage } from './components/start-page';
import { TopBar } from './components/top-bar';
import { useInspector } from './inspector-context';
import { loadDemoFiles } from './input/load-demo-files';
import { useLoadInput } from './input/use-load-input';
import { useAppStore } from './state/app-store';
import { clearSessionUrl, freshSessionChoices } from './state/end-session';
import { reopenLastSession } from './state/reopen-last-session';
import { useInspection } from './state/use-inspection';
import { VIEWS, navigate, useHashRoute } from './state/use-hash-route';
import { ViewSwitch } from './view-switch';

export function App() {
  const inspector = useInspector();
  const queryClient = useQueryClient();
  const load = useLoadInput();
  const route = useHashRoute();
  const { status, failure, progress, session, storageError, pickFrom, set } = useAppStore();
  const inspection = useInspection();
  const [dragging, setDragging] = useState(false);
  const [help, setHelp] = useState(false);
  const closeHelp = useCallback(() => setHelp(false), []);

  // `metadataPath`: the savepoint picked earlier in an input holding several (Recent sessions reopen it without asking)
  const openFiles = useCallback(
    (files: InputFile[], replace?: boolean, metadataPath?: string) => void load(files, { replace, ...(metadataPath === undefined ? {} : { metadataPath }) }),
    [load],
  );
  const openDemo = useCallback(async () => {
    set({ status: 'loading', failure: null, progress: null });
    try {
      const files = await loadDemoFiles();
      await load(files, { replace: true });
    } catch (e) {
      set({ status: 'failed', failure: toInspectorFailure(e) });
    }
  }, [load, set]);
  // the open-by-URL box loads the page again with ?savepoint=<url>: the Content-Security-Policy is sent per page
  // load and allows an http(s) URL's origin only then (an object-store URL goes to the companion, the page's own origin)
  const openUrl = useCallback((url: string) => {
    const params = new URLSearchParams(window.location.search);
    for (const name of ['demo', 'target', 'savepoint']) params.delete(name);
    params.set('savepoint', url);
    window.location.assign(`${window.location.pathname}?${params.toString()}`);
  }, []);
  // Close ends the session: its inputs, its choices and its URL parameters (?demo, ?target, ?savepoint) go
  const close = useCallback(() => {
    clearSessionUrl();
    set({
      session: null,
      savepointFiles: [],
      schemaFiles: [],
      savepointUrl: null,
      metadataPath: null,
      pickFrom: null,
      status: 'empty',
      failure: null,
      ...freshSessionChoices(),
    });
    void queryClient.invalidateQueries({ queryKey: ['recent-sessions'] });
  }, [queryClient, set]);

  // `npm start` and `?demo` open the bundled demo; a reloaded view link reopens the last session
  // whose files were kept (opt-in); otherwise the start page
  useEffect(() => {
    const params = new URLSearchParams(window.location.search);
    const savepointUrl = params.get('savepoint');
    if (savepointUrl !== null) void load([], { replace: true, url: savepointUrl });
    else if (params.has('demo') || (import.meta.env.DEV && !params.has('nodemo'))) void openDemo();
    else if (window.location.hash.length > 2) void reopenLastSession(openFiles, (storageError) => set({ storageError }));
  }, [load, openDemo, openFiles, set]);

  // number keys switch views, as in other inspectors
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const t = e.target as HTMLElement | null;
      if (e.altKey || e.ctrlKey || e.metaKey || (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName)))) return;
      if (e.key === '?') {
        setHelp(true);
        return;
      }
      const v = VIEWS.find((x) => x.key === e.key);
      if (v) navigate(v.id, { op: route.params.op, state: route.params.state });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [route.params.op, route.params.state]);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const pending = readDroppedEntries(e.dataTransfer.items);
    void pending.then(
      (files) => openFiles(files),
      (err: unknown) => set({ status: 'failed', failure: toInspectorFailure(err) }),
    );
  };

  // every worker call of the open session is a query under ['session', …]: any of them running shows progress
  const fetching = useIsFetching({ queryKey: ['session'] });
  const busy = status === 'loading' || fetching > 0;
  // a schema given first: the start page stays, with the schema, until the savepoint comes
  const open = session !== null && session.savepointName !== null;
  const appState = busy ? 'loading' : status === 'failed' || inspection.isError ? 'failed' : open ? 'ready' : 'empty';
  return (
    <div
      className={`app${dragging ? ' dragging' : ''}`}
      data-app-state={appState}
      data-testid="app"
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
        if (!dragging) setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.currentTarget === e.target) setDragging(false);
      }}
      onDrop={onDrop}
    >
      <a
        className="skip-link"
        href="#/"
        onClick={(e) => {
          // the hash is the view's route: move the focus without changing it
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
        data-testid="skip-link"
      >
        Skip to the content
      </a>
      <TopBar onFiles={(f) => openFiles(f)} onDemo={() => void openDemo()} onClose={close} onHelp={() => setHelp(true)} />
      {busy ? <ProgressBar progress={progress} onCancel={() => void inspector.cancel()} /> : null}
      {storageError ? (
        <div className="notice" role="alert" data-testid="storage-error">
          {storageError}
          <button type="button" className="btn small ghost" onClick={() => set({ storageError: null })} aria-label="Dismiss storage message">
            ✕
          </button>
        </div>
      ) : null}
      <div className="body">
        {open ? <NavBar current={route.view} params={route.params} /> : null}
        <main className="main" id="main" tabIndex={-1}>
          {failure && pickFrom && failure.kind === 'input' && failure.name === 'UsageError' && failure.candidates ? (
            <SavepointPicker
              candidates={failure.candidates}
              onPick={(metadataPath) => void load(pickFrom.added, { replace: pickFrom.replace, metadataPath })}
              onDismiss={() => set({ failure: null, pickFrom: null, status: session ? 'ready' : 'empty' })}
            />
          ) : failure ? (
            <FailurePanel failure={failure} onDismiss={() => set({ failure: null, pickFrom: null, status: session ? 'ready' : 'empty' })} />
          ) : null}
          {open ? (
            <ViewSwitch route={route} inspection={inspection} />
          ) : status !== 'loading' ? (
            <StartPage onFiles={openFiles} onDemo={() => void openDemo()} onUrl={openUrl} schemaName={session?.descriptorSetName ?? null} />
          ) : null}
        </main>
      </div>
      {help ? <KeyboardHelp onClose={closeHelp} /> : null}
      {dragging ? (
        <div className="drop-overlay" aria-hidden="true">
          <div>Drop a savepoint (folder, archive, _metadata) and/or a descriptor set</div>
        </div>
      ) : null}
    </div>
  );
}
