import { describe, expect, it } from 'vitest';
import { wrapTerminalText } from './wrap-terminal-text';

describe('wrapTerminalText', () => {
  const reason =
    '  first incompatibility [TARGET_CANNOT_READ_SNAPSHOT]: io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot (0.x) cannot be read by target 1.x';

  it('breaks a wide line at spaces, continuations indented four past the line', () => {
    expect(wrapTerminalText(`${reason}\nshort\n`, 60)).toBe(
      [
        '  first incompatibility [TARGET_CANNOT_READ_SNAPSHOT]:',
        '      io.github.flink.gcp.protobuf.ProtobufTypeSerializerSnapshot',
        '      (0.x) cannot be read by target 1.x',
        'short',
        '',
      ].join('\n'),
    );
  });

  it('every piece fits unless it is one word wider than the room', () => {
    const wrapped = wrapTerminalText(reason, 60).split('\n');
    for (const l of wrapped) if (l.trim().includes(' ')) expect(l.length).toBeLessThanOrEqual(60);
    expect(wrapped.join(' ').replace(/ +/g, ' ').trim()).toBe(reason.replace(/ +/g, ' ').trim());
  });

  it('leaves the text alone without a terminal width, or one too narrow to wrap to', () => {
    expect(wrapTerminalText(reason, undefined)).toBe(reason);
    expect(wrapTerminalText(reason, 20)).toBe(reason);
    expect(wrapTerminalText(reason, 200)).toBe(reason);
  });
});
