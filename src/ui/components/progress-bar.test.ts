import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ProgressBar } from './progress-bar';

const noop = () => undefined;

describe('ProgressBar', () => {
  it('names the running step it was given before the first progress report, not "Starting"', () => {
    const html = renderToStaticMarkup(createElement(ProgressBar, { progress: null, onCancel: noop, what: 'Loading rules' }));
    expect(html).toContain('Loading rules');
    expect(html).not.toContain('Starting');
    expect(html).toContain('aria-label="Loading rules"');
  });

  it('keeps the step and adds the phase once progress comes', () => {
    const html = renderToStaticMarkup(
      createElement(ProgressBar, { progress: { phase: 'scanning-values', bytesRead: 10, bytesTotal: 100 }, onCancel: noop, what: 'Loading rules' }),
    );
    expect(html).toContain('Loading rules');
    expect(html).toContain('Scanning values');
  });

  it('lies inside the view, not over the page, when the view draws it', () => {
    expect(renderToStaticMarkup(createElement(ProgressBar, { progress: null, onCancel: noop, inline: true }))).toContain('class="progress inline"');
  });
});
