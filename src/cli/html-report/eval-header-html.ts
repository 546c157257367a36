// The header of the eval HTML report: what was measured (model, reranker, corpus, golden set, fingerprint), how
// healthy the legs were, and what the integrity checks found (degradation, stale or drifted golden set,
// golden-queries-quoted findings, notes, gates) — all text from the report, escaped.
import { displayPath, type EvalReport, formatDrift } from '../../app/index.js';
import { escapeHtml } from './html-text.js';

const fact = (label: string, value: string, key: string) =>
  `<dt>${escapeHtml(label)}</dt><dd data-fact="${key}">${value}</dd>`;

function renderLegs(report: EvalReport): string {
  const legs = Object.entries(report.probe.legs).map(([leg, health]) => {
    const tone =
      health.status === 'failed' || health.status === 'partial'
        ? 'down'
        : health.status === 'ok'
          ? 'ok'
          : 'none';
    const error = health.error ? ` — ${escapeHtml(health.error)}` : '';
    return `<li data-leg="${escapeHtml(leg)}">${escapeHtml(leg)}: <span class="badge ${tone}">${escapeHtml(health.status)}</span>${error}</li>`;
  });
  const failures = report.legFailures.map(
    (f) =>
      `<li class="warn">the ${escapeHtml(f.leg)} leg failed on ${f.queries} of ${report.run.perQuery.length} queries (${escapeHtml(f.firstReason)})</li>`,
  );
  return `<ul class="legs">${[...legs, ...failures].join('')}</ul>`;
}

function renderFindings(report: EvalReport): string {
  const items: string[] = [];
  for (const d of report.run.degradation ?? []) {
    items.push(
      `<li><span class="badge down">degraded</span> ${escapeHtml(d.leg)} — ${escapeHtml(d.reason)}</li>`,
    );
  }
  const freshness = report.freshness;
  if (freshness?.stale) {
    items.push(
      `<li><span class="badge warn">stale golden</span> older than [eval] max_golden_age_days = ${freshness.maxAgeDays}</li>`,
    );
  }
  if (freshness?.drift?.drifted) {
    items.push(
      `<li><span class="badge warn">corpus drift</span> the corpus moved ${escapeHtml(formatDrift(freshness.drift.change))} since the golden set was made</li>`,
    );
  }
  if (report.corpusChange) {
    items.push(
      `<li><span class="badge warn">corpus changed</span> since the compared run (${escapeHtml(report.corpusChange)})</li>`,
    );
  }
  for (const finding of report.run.findings) {
    const quoted = finding.quoted
      .map(
        (q) =>
          `${escapeHtml(q.queryId)} (${q.rankInTopK === null ? 'not in top k' : `rank ${q.rankInTopK}`})`,
      )
      .join(', ');
    items.push(
      `<li><span class="badge warn">golden-queries-quoted</span> ${escapeHtml(displayPath(finding.path))} quotes ${quoted}</li>`,
    );
  }
  for (const note of report.notes) items.push(`<li class="muted">note: ${escapeHtml(note)}</li>`);
  return items.length === 0
    ? '<p class="muted" id="findings">No findings: no degradation, golden set fresh, no query quoted by a document.</p>'
    : `<ul id="findings">${items.join('')}</ul>`;
}

function describeGate(gate: EvalReport['gate'] | EvalReport['significantGate']): string {
  switch (gate.state) {
    case 'off':
      return 'off';
    case 'no-op':
      return `compared nothing: ${gate.reason}`;
    case 'passed':
      return `passed against ${gate.against}`;
    case 'regressed':
      return `regressed against ${gate.against}: ${gate.regressions.map((r) => r.metric).join(', ')}`;
  }
}

/** `fingerprint` is the wire form `--format json` prints, shown as it is. */
export function renderEvalHeader(report: EvalReport, fingerprint: unknown): string {
  const { run } = report;
  const f = run.fingerprint;
  const corpus = run.corpus
    ? `${run.corpus.documents} documents / ${run.corpus.chunks} chunks <span class="muted">digest ${escapeHtml(run.corpus.digest.slice(0, 16))}</span>`
    : '—';
  const freshness = report.freshness;
  const golden = `${escapeHtml(displayPath(report.golden.path))} <span class="muted">(${report.golden.queries.length} queries, sha256 ${escapeHtml(f.goldenHash.slice(0, 16))}${freshness ? `, created ${escapeHtml(freshness.meta.created)} from ${escapeHtml(freshness.meta.source)}` : ''})</span>`;
  return [
    `<h1>groove eval <span class="muted">${escapeHtml(run.timestamp)}</span></h1>`,
    '<dl class="facts">',
    fact('model', escapeHtml(f.model), 'model'),
    fact('reranker', escapeHtml(f.reranker ?? 'none'), 'reranker'),
    fact('corpus', corpus, 'corpus'),
    fact('golden', golden, 'golden'),
    fact('k / limit', `${f.kValues.join(', ')} / ${f.limit}`, 'k'),
    fact('queries', String(run.aggregate.queryCount), 'queries'),
    fact('regression gate', escapeHtml(describeGate(report.gate)), 'gate'),
    fact('significance gate', escapeHtml(describeGate(report.significantGate)), 'significant-gate'),
    '</dl>',
    `<details><summary>fingerprint</summary><pre>${escapeHtml(JSON.stringify(fingerprint, null, 2))}</pre></details>`,
    '<h2>Leg health</h2>',
    renderLegs(report),
    '<h2>Findings</h2>',
    renderFindings(report),
  ].join('\n');
}
