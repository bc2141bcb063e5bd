import type { InspectorFailure } from '../worker';

/** The failure panel's title, by who must act: the user's input, the network or server, or (only for an internal error) the inspector. */
export function describeFailureTitle(failure: InspectorFailure): string {
  switch (failure.kind) {
    case 'input':
      if (failure.name === 'UsageError') {
        return ['nothing-open', 'no-input', 'no-savepoint', 'no-schema'].includes(failure.code) ? 'More input is needed' : 'This input cannot be used here';
      }
      if (failure.code === 'missing-file') return 'A file the input needs is missing';
      // fewer bytes than the structure needs: most often a file copied or downloaded only in part
      if (failure.code === 'truncated') {
        return failure.file
          ? `The file ${failure.file} is cut short: it ends before what it holds is complete (copied or downloaded only in part?)`
          : 'The input is cut short: it ends before what it holds is complete';
      }
      return failure.code === 'wrong-file-kind' || failure.code === 'not-recognised' ? 'This input cannot be used here' : 'The input could not be decoded';
    case 'network':
      return 'The savepoint could not be fetched (a network or server setting)';
    case 'cancelled':
      return 'Cancelled';
    case 'unavailable':
      return 'Not available in this build';
    case 'internal':
      return 'Internal error (a bug in the inspector; please report it with the diagnostics)';
  }
}

/** Who must act, in two or three words, shown before the title: the user's input, the network or server, or the inspector (only for real bugs). */
export function describeFailureKind(failure: InspectorFailure): string {
  switch (failure.kind) {
    case 'input':
      return 'Your input';
    case 'network':
      return 'Network or server';
    case 'internal':
      return 'Bug in the inspector';
    case 'cancelled':
      return 'You cancelled';
    case 'unavailable':
      return 'This build';
  }
}
