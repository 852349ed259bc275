// One release of a question answered in confidence, as published: its
// facts (method, ε, when, how many respondents), its bars with 95% error
// bars where a bin has an interval of its own, the table of every bin (a bin
// that shares a noise group shows the group's mean and the interval of that
// mean), the total with its interval, and for a histogram question each data
// consumer's view. Optionally post-processed values instead of the raw noisy
// counts (dashboard-postprocess.js): consistent values (Norm-Sub: at least 0,
// same total) carry no interval; clamped or rounded ones keep the raw
// release's intervals, labelled as such. Never any exact count: a release
// holds none.
import { el, replaceChildren, setText } from '../shared/dom.js';
import { MISSING, formatEpsilon, formatInteger, formatNumber } from '../shared/format.js';
import { createCentralChart } from './dashboard-chart.js';
import { RAW_DISPLAY } from './dashboard-postprocess.js';
import { scrollBox } from '../shared/scroll-box.js';

// The release methods, in plain words (the form offers them in this order).
export const RELEASE_METHODS = [
  {
    name: 'sreb_gca', short: 'SREB-GCA', label: 'SREB-GCA (grouped bins)',
    explanation: 'The paper’s method: part of ε (ρ) finds groups of similar bins, and each group publishes one noisy average — less noise for small bins, some averaging error.',
  },
  {
    name: 'dp_base', short: 'DP base', label: 'DP base (noise on every count)',
    explanation: 'Adds noise to every count separately: each bin gets an interval of its own.',
  },
  {
    name: 'ahp', short: 'AHP', label: 'AHP (a published baseline)',
    explanation: 'A stronger published baseline that also groups similar bins and publishes one noisy average per group.',
  },
];

export function methodLabel(name) {
  return RELEASE_METHODS.find((method) => method.name === name)?.label ?? name;
}

// "DP base": for tables and lists.
export function methodShortName(name) {
  return RELEASE_METHODS.find((method) => method.name === name)?.short ?? name;
}

// "2026-11-25 02:15:50 UTC": the server's time, the same for every reader
// (`utc` false: without the zone, for a column that names it).
export function releaseTime(createdAt, utc = true) {
  if (typeof createdAt !== 'string') return MISSING;
  return createdAt.replace('T', ' ').replace(/Z$/, utc ? ' UTC' : '');
}

export function intervalText(low, high) {
  if (low === null || low === undefined || high === null || high === undefined) return MISSING;
  return `${formatNumber(low)}\u00a0to ${formatNumber(high)}`;
}

// `id`: the question's id (test ids); `title`: its text, for the charts' labels.
export function createReleaseView(id, title) {
  const facts = el('p', { class: 'hint', testid: `release-facts-${id}` });
  const consistentNote = el('p', { class: 'hint', testid: `release-consistent-note-${id}`, hidden: true,
    text: 'Consistent values (Norm-Sub): the noisy counts adjusted to be at least 0 with the same total. They carry no interval of their own; switch back to see the raw counts and their intervals.' });
  const postprocessNote = el('p', { class: 'hint', testid: `release-postprocess-note-${id}`, hidden: true });
  const main = createBinsBlock({ key: id, title, withGroups: true });
  const total = el('p', { class: 'release-total', testid: `release-total-${id}` });
  const intervalNote = el('p', { class: 'hint', testid: `release-interval-note-${id}` });
  const viewsBox = el('div', { class: 'central-views', testid: `release-views-${id}` });
  let views = [];
  let viewsKey = '';

  const element = el('div', { class: 'release-view', testid: `release-view-${id}` }, [
    facts, consistentNote, postprocessNote, main.element, total, intervalNote, viewsBox,
  ]);

  return {
    element,
    // `display`: what dashboard-postprocess.js chose (the raw counts by default).
    show(release, display = RAW_DISPLAY) {
      const { consistent } = display;
      const reshaped = display.steps.includes('clamp') || display.steps.includes('round');
      setText(facts, `${methodLabel(release.method)} · ${formatEpsilon(release.epsilon)} · made ${releaseTime(release.created_at)} · ` +
        `${formatInteger(release.respondents)} respondents then · one answer changes one count by at most ${formatNumber(release.sensitivity)}`);
      consistentNote.hidden = !consistent;
      postprocessNote.hidden = !reshaped;
      setText(postprocessNote, reshaped ? postprocessText(display) : '');
      main.show(binRows(release, display), display);
      setText(total, `${reshaped ? 'Total of the raw release' : 'Total'}: ${formatNumber(release.total?.value)} (95% interval ${intervalText(release.total?.ci_low, release.total?.ci_high)})`);
      total.dataset.value = String(release.total?.value);
      setText(intervalNote, release.interval_note ? `${release.interval_note}.` : '');

      const releaseViews = release.views ?? [];
      const key = JSON.stringify(releaseViews.map((view) => [view.name, view.bins.map((bin) => bin.label)]));
      if (key !== viewsKey) {
        views.forEach((view) => view.destroy());
        viewsKey = key;
        views = releaseViews.map((view, index) => createViewSection(id, index, view.name));
        replaceChildren(viewsBox, views.map((view) => view.element));
      }
      releaseViews.forEach((view, index) => views[index].show(viewRows(release, view, display), display));
    },
    destroy() {
      main.destroy();
      views.forEach((view) => view.destroy());
    },
  };
}

// A data consumer's histogram: the cells summed into that consumer's bins.
function createViewSection(id, index, name) {
  const key = `${id}-view-${index}`;
  const note = el('p', { class: 'hint', testid: `release-view-note-${key}`, hidden: true });
  const block = createBinsBlock({ key, title: `“${name}”`, withGroups: false });
  const element = el('section', { class: 'consumer-result', 'aria-label': `Histogram “${name}”`, testid: `release-view-${key}` }, [
    el('h4', { class: 'chart-title', text: `Histogram “${name}”` }),
    note,
    block.element,
  ]);
  return {
    element,
    show(rows, display) {
      note.hidden = !rows.raw;
      setText(note, rows.raw ? 'Its bins do not follow the cells’ edges, so the raw noisy counts are shown.' : '');
      block.show(rows.rows, rows.raw ? RAW_DISPLAY : display);
    },
    destroy: () => block.destroy(),
  };
}

// What the note says of clamped or rounded values: done by the server, and the
// intervals (none for consistent values) are the raw release's.
function postprocessText(display) {
  const done = [
    display.steps.includes('clamp') ? 'negatives set to 0' : null,
    display.steps.includes('round') ? 'rounded to whole numbers' : null,
  ].filter(Boolean).join(' and ');
  if (display.consistent) return `Then ${done}, by the server from the stored release.`;
  return `Post-processed values: ${done}, by the server from the stored release (no further privacy cost, but they can be biased). ` +
    'The 95% intervals and error bars are those of the raw release, not of these values; untick to see the raw counts.';
}

// The bins of the release as table rows and bars: the raw counts, or the
// display's values (consistent ones without intervals, others with the raw ones).
function binRows(release, display) {
  return release.bins.map((bin, index) => {
    const group = bin.group === undefined || bin.group === null ? null : release.groups?.[bin.group] ?? null;
    const value = display.values ? display.values[index] ?? null : (display.consistent ? null : bin.value);
    if (display.consistent) {
      return { label: bin.label, value, ci_low: null, ci_high: null, grouped: group !== null, intervalText: MISSING };
    }
    return {
      label: bin.label, value, ci_low: bin.ci_low, ci_high: bin.ci_high, grouped: group !== null,
      intervalText: group ? null : intervalText(bin.ci_low, bin.ci_high),
      group: group ? { mean: group.mean, ci_low: group.ci_low, ci_high: group.ci_high, others: group.bins.filter((other) => other !== index).map((other) => release.bins[other]?.label) } : null,
    };
  });
}

// A consumer's bins; with post-processed values, each bin is the sum of the
// post-processed cells it covers (found by its upper edge), with the raw
// view's interval unless the values are consistent, or, when the edges cannot
// be followed, the raw view ({raw: true}).
function viewRows(release, view, display) {
  // A bin that cuts noise groups publishes bounds (none to all of the cut groups' counts), not a noise interval.
  const binInterval = (bin) => {
    if (bin.ci_low === null || bin.ci_low === undefined) return 'none: this bin splits a noise group';
    const text = intervalText(bin.ci_low, bin.ci_high);
    return bin.cuts_groups ? `bounds ${text}: this bin splits ${bin.cuts_groups === 1 ? 'a noise group' : `${bin.cuts_groups} noise groups`}, so they run from none to all of their counts` : text;
  };
  const raw = view.bins.map((bin) => ({
    label: bin.label, value: bin.value, ci_low: bin.ci_low, ci_high: bin.ci_high,
    grouped: bin.ci_low === null || bin.ci_low === undefined || Boolean(bin.cuts_groups),
    intervalText: binInterval(bin),
  }));
  if (!display.values) return { rows: raw, raw: false };
  const sums = cellSums(release, view, display.values);
  if (!sums) return { rows: raw, raw: true };
  if (!display.consistent) return { rows: raw.map((row, index) => ({ ...row, value: sums[index] })), raw: false };
  return {
    rows: view.bins.map((bin, index) => ({ label: bin.label, value: sums[index], ci_low: null, ci_high: null, grouped: false, intervalText: MISSING })),
    raw: false,
  };
}

const UPPER_EDGE = /,\s*([^,\])]+?)\s*[\])]\s*$/;

function cellSums(release, view, values) {
  const cells = release.bins.map((bin) => UPPER_EDGE.exec(bin.label)?.[1]);
  if (cells.some((edge) => edge === undefined) || values.length !== cells.length) return null;
  const sums = [];
  let cell = 0;
  for (const bin of view.bins) {
    const upper = UPPER_EDGE.exec(bin.label)?.[1];
    if (upper === undefined) return null;
    let sum = 0;
    for (;;) {
      if (cell >= cells.length) return null;
      sum += values[cell];
      cell += 1;
      if (cells[cell - 1] === upper) break;
    }
    sums.push(sum);
  }
  return cell === cells.length ? sums : null;
}

// A chart and the table of its bins. `withGroups`: the interval column
// explains a grouped bin (the main bins); a view's bins say only "none".
function createBinsBlock({ key, title, withGroups }) {
  const tableId = `release-table-${key}`;
  const canvas = el('canvas', {
    role: 'img', testid: `release-chart-${key}`, 'aria-describedby': tableId,
    'aria-label': `Bar chart of the released noisy count per bin (${title}), with 95% error bars where a bin has an interval of its own. The table below lists the numbers.`,
  });
  const valueHeading = el('th', { scope: 'col', text: 'Noisy count' });
  const intervalHeading = el('th', { scope: 'col', text: '95% interval' });
  const groupedLegend = el('p', { class: 'hint chart-caption', testid: `release-grouped-legend-${key}`, hidden: true,
    text: withGroups
      ? 'Lighter bars share a noise group with other bins: they have no interval of their own (the table gives the group’s).'
      : 'Lighter bars split a noise group: they have no interval.' });
  const body = el('tbody');
  const tableBox = scrollBox(el('table', { id: tableId, class: 'results-table', 'aria-label': `${title}: released values per bin`, testid: `release-table-${key}` }, [
    el('thead', {}, [el('tr', {}, [el('th', { scope: 'col', text: 'Bin' }), valueHeading, intervalHeading])]),
    body,
  ]), { label: `${title}: table of bins` });
  const element = el('div', { class: 'bins-view' }, [
    el('div', { class: 'chart-box chart-box-central' }, [canvas]),
    groupedLegend,
    tableBox,
  ]);
  const chart = createCentralChart(canvas, 'released count');
  let rows = [];
  let labelsKey = '';
  return {
    element,
    // `display`: what the values are (its heading; consistent ones have no intervals).
    show(bins, display) {
      const labels = JSON.stringify(bins.map((bin) => bin.label));
      if (labels !== labelsKey) {
        labelsKey = labels;
        rows = bins.map((bin, index) => createRow(key, bin.label, index));
        replaceChildren(body, rows.map((row) => row.element));
        // Many bins scroll up and down too, in the box that already takes focus (scrollBox).
        tableBox.classList.toggle('table-tall', rows.length > 20);
      }
      setText(valueHeading, display.heading);
      setText(intervalHeading, display.values && !display.consistent ? '95% interval (raw release)' : '95% interval');
      groupedLegend.hidden = !bins.some((bin) => bin.grouped && (bin.ci_low === null || bin.ci_low === undefined));
      bins.forEach((bin, index) => rows[index].show(bin, withGroups));
      chart.update(bins);
    },
    destroy: () => chart.destroy(),
  };
}

function createRow(key, label, index) {
  const value = el('td', { class: 'number', testid: `release-value-${key}-${index}` });
  const interval = el('td', { class: 'number interval', testid: `release-ci-${key}-${index}` });
  const element = el('tr', { testid: `release-bin-${key}-${index}` }, [el('th', { scope: 'row', class: 'bin-label', text: label }), value, interval]);
  return {
    element,
    show(bin, withGroups) {
      setText(value, formatNumber(bin.value));
      value.dataset.value = String(bin.value);
      interval.dataset.low = String(bin.ci_low ?? null);
      interval.dataset.high = String(bin.ci_high ?? null);
      const shownKey = JSON.stringify([bin.intervalText, withGroups ? bin.group : null]);
      if (interval.dataset.shown === shownKey) return;
      interval.dataset.shown = shownKey;
      if (bin.group && withGroups) {
        const others = bin.group.others.filter(Boolean);
        replaceChildren(interval, [
          `shared group: mean ${formatNumber(bin.group.mean)}, interval [${formatNumber(bin.group.ci_low)}, ${formatNumber(bin.group.ci_high)}]`,
          others.length ? el('span', { class: 'group-note', text: `with ${others.join(', ')}` }) : null,
        ]);
      } else {
        replaceChildren(interval, [bin.intervalText ?? MISSING]);
      }
    },
  };
}
