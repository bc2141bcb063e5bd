import { expect, test as base } from '@playwright/test';

/**
 * The suite's `test`: every test also asserts that no request left this machine (only localhost /
 * 127.0.0.1, data: and blob: URLs) — the app uploads nothing and fetches nothing from elsewhere.
 */
export const test = base.extend<{ offMachineRequests: string[] }>({
  offMachineRequests: [
    async ({ context }, use) => {
      const seen: string[] = [];
      context.on('request', (req) => {
        const u = new URL(req.url());
        if (u.protocol === 'data:' || u.protocol === 'blob:') return;
        if (u.hostname !== 'localhost' && u.hostname !== '127.0.0.1') seen.push(req.url());
      });
      await use(seen);
      expect(seen, 'requests that left localhost').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
