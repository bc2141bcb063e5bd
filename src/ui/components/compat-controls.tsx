import { useState } from 'react';
import { DEFAULT_SETTINGS, type CheckOptions } from '../../worker';
import { useAppStore } from '../state/app-store';
import { chooseTargetLine } from '../state/choose-target-line';

/**
 * Target library line and the new application's serializer settings; changes re-run the check.
 * `targetShown`: the line the check ran for is shown (chosen, or not asked since both lines agree).
 */
export function CompatControls({ targetShown }: { targetShown: boolean }) {
  const options = useAppStore((s) => s.checkOptions);
  const targetChosen = targetShown;
  const set = useAppStore((s) => s.set);
  const update = (patch: Partial<CheckOptions>) => set({ checkOptions: { ...options, ...patch } });
  const settings = options.newSettings;
  const setSetting = <K extends keyof typeof settings>(key: K, value: (typeof settings)[K] | undefined) => {
    const next = { ...settings };
    if (value === undefined) delete next[key];
    else next[key] = value;
    update({ newSettings: next });
  };
  return (
    <div className="controls" role="group" aria-label="New application">
      <label>
        New job&apos;s library line
        <select
          value={targetChosen ? options.target : ''}
          onChange={(e) => chooseTargetLine(e.currentTarget.value as CheckOptions['target'])}
          data-testid="target-select"
        >
          {targetChosen ? null : (
            <option value="" disabled>
              not chosen yet
            </option>
          )}
          <option value="1.x">1.x (directional rules)</option>
          <option value="0.x">0.x (exact rule)</option>
        </select>
      </label>
      <NumberSetting
        label="maxMessageSize"
        value={settings.maxMessageSize}
        fallback={DEFAULT_SETTINGS.maxMessageSize}
        onCommit={(v) => setSetting('maxMessageSize', v)}
      />
      <NumberSetting
        label="recursionLimit"
        value={settings.recursionLimit}
        fallback={DEFAULT_SETTINGS.recursionLimit}
        onCommit={(v) => setSetting('recursionLimit', v)}
      />
      <BoolSetting
        label="deterministicSerialization"
        value={settings.deterministicSerialization}
        fallback={DEFAULT_SETTINGS.deterministicSerialization}
        onChange={(v) => setSetting('deterministicSerialization', v)}
      />
      <BoolSetting
        label="largePayloadAliasing"
        value={settings.largePayloadAliasing}
        fallback={DEFAULT_SETTINGS.largePayloadAliasing}
        onChange={(v) => setSetting('largePayloadAliasing', v)}
      />
      <RootSetting value={options.newRoot} onCommit={(newRoot) => update({ newRoot })} />
    </div>
  );
}

/** Commits on Enter or blur, so typing a number does not re-run the check per keystroke. */
function NumberSetting({
  label,
  value,
  fallback,
  onCommit,
}: {
  label: string;
  value: number | undefined;
  fallback: number;
  onCommit: (v: number | undefined) => void;
}) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const [error, setError] = useState<string | null>(null);
  const commit = () => {
    const t = text.trim();
    if (t === '') {
      setError(null);
      onCommit(undefined);
      return;
    }
    if (!/^\d+$/.test(t) || !Number.isSafeInteger(Number(t)) || Number(t) <= 0) {
      setError(`expected a positive whole number, found “${t}”`);
      return;
    }
    setError(null);
    onCommit(Number(t));
  };
  return (
    <label>
      {label}
      <input
        className="mono"
        inputMode="numeric"
        value={text}
        placeholder={`serializer's default: ${fallback}`}
        // wide enough for the whole placeholder: whose default it is and its value
        size={`serializer's default: ${fallback}`.length}
        aria-invalid={error !== null}
        onChange={(e) => setText(e.currentTarget.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
        data-testid={`setting-${label}`}
      />
      {error ? <span className="error-text small">{error}</span> : null}
    </label>
  );
}

/** The new root message of every Protobuf state, when it was renamed (default: each state's saved root). */
function RootSetting({ value, onCommit }: { value: string | undefined; onCommit: (v: string | undefined) => void }) {
  const [text, setText] = useState(value ?? '');
  const commit = () => onCommit(text.trim() === '' ? undefined : text.trim().replace(/^\./, ''));
  return (
    <label>
      new root message
      <input
        className="mono"
        value={text}
        placeholder="default: each state's saved root"
        size={"default: each state's saved root".length}
        onChange={(e) => setText(e.currentTarget.value)}
        onBlur={commit}
        onKeyDown={(e) => e.key === 'Enter' && commit()}
        data-testid="setting-newRoot"
      />
    </label>
  );
}

function BoolSetting({
  label,
  value,
  fallback,
  onChange,
}: {
  label: string;
  value: boolean | undefined;
  fallback: boolean;
  onChange: (v: boolean | undefined) => void;
}) {
  return (
    <label>
      {label}
      <select
        value={value === undefined ? 'default' : String(value)}
        onChange={(e) => onChange(e.currentTarget.value === 'default' ? undefined : e.currentTarget.value === 'true')}
      >
        <option value="default">serializer&apos;s default: {String(fallback)}</option>
        <option value="true">true</option>
        <option value="false">false</option>
      </select>
    </label>
  );
}
