import { useRef } from 'react';
import { readPickedFiles, type InputFile } from '../../worker';

/** Pickers for those who do not drag: files (archives, _metadata, descriptor sets) and a folder. */
/** `testIdPrefix`: a second pair of pickers on one page (the Compare view's) gets test ids of its own */
export function FilePickers({ onFiles, compact, testIdPrefix = '' }: { onFiles: (files: InputFile[]) => void; compact?: boolean; testIdPrefix?: string }) {
  const filesRef = useRef<HTMLInputElement>(null);
  const folderRef = useRef<HTMLInputElement>(null);
  const take = (input: HTMLInputElement) => {
    if (input.files && input.files.length > 0) onFiles(readPickedFiles(input.files));
    input.value = '';
  };
  const cls = compact ? 'btn small' : 'btn';
  return (
    <span className="pickers">
      <button type="button" className={cls} onClick={() => filesRef.current?.click()} aria-label="Open files: archive, _metadata or descriptor set">
        <span className="picker-long">Open files…</span>
        <span className="picker-short">Files…</span>
      </button>
      <button type="button" className={cls} onClick={() => folderRef.current?.click()} aria-label="Open a savepoint folder">
        <span className="picker-long">Open folder…</span>
        <span className="picker-short">Folder…</span>
      </button>
      <input
        ref={filesRef}
        type="file"
        multiple
        hidden
        data-testid={`${testIdPrefix}file-input`}
        aria-label="Savepoint archive, _metadata or descriptor set files"
        onChange={(e) => take(e.currentTarget)}
      />
      <input
        ref={(el) => {
          folderRef.current = el;
          // React does not know webkitdirectory; set it as a DOM property
          if (el) el.webkitdirectory = true;
        }}
        type="file"
        multiple
        hidden
        data-testid={`${testIdPrefix}folder-input`}
        aria-label="Savepoint folder"
        onChange={(e) => take(e.currentTarget)}
      />
    </span>
  );
}
