import { useRef } from 'react';
import { readPickedFiles, type InputFile } from '../../worker';

/** Pickers for those who do not drag: files (archives, _metadata, descriptor sets) and a folder. */
export function FilePickers({ onFiles, compact }: { onFiles: (files: InputFile[]) => void; compact?: boolean }) {
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
        data-testid="file-input"
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
        data-testid="folder-input"
        aria-label="Savepoint folder"
        onChange={(e) => take(e.currentTarget)}
      />
    </span>
  );
}
