// The status page's script (served as /ui/app.js). Rules it keeps: every value from the server goes into the
// page as text (createTextNode / textContent), never as markup, so a note titled `<img onerror=…>` shows as
// those characters; the token comes from the page address's fragment (`#token=…`, never sent to the server) or
// the token form, lives in sessionStorage for this tab, and goes out only as an Authorization header to this
// server. It polls /api/status every 5 s while the tab is visible. When the status carries "kbs" (a server of
// several KBs) it lists them and offers a KB picker: the search covers every KB unless one is picked. Kept free
// of backticks and `${`: it is the body of a template literal (raw, so a backslash added later reaches the
// browser as written).
// biome-ignore lint/complexity/noUselessStringRaw: keeps any future backslash escape intact
export const PAGE_SCRIPT = String.raw`'use strict';
(() => {
  const TOKEN_KEY = 'groove.token';
  const POLL_MS = 5000;
  const byId = (id) => document.getElementById(id);
  let pollTimer = null;
  let refreshing = false;

  /** An element with a class (optional) and children: strings become text nodes, never markup. */
  function el(tag, className, ...children) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    for (const child of children) {
      if (child === null || child === undefined) continue;
      node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  function setText(id, text) {
    byId(id).textContent = text;
  }

  function takeTokenFromAddress() {
    const match = /(?:^#|&)token=([^&]*)/.exec(location.hash);
    if (!match) return;
    let token = match[1];
    try {
      token = decodeURIComponent(token);
    } catch {
      // not percent-encoded after all: use it as written
    }
    sessionStorage.setItem(TOKEN_KEY, token);
    history.replaceState(null, '', location.pathname + location.search);
  }

  class Unauthorized extends Error {}

  async function getJson(path) {
    const headers = { Accept: 'application/json' };
    const token = sessionStorage.getItem(TOKEN_KEY);
    if (token) headers.Authorization = 'Bearer ' + token;
    const response = await fetch(path, { headers, cache: 'no-store' });
    if (response.status === 401) throw new Unauthorized('this server needs its token');
    let body = null;
    try {
      body = await response.json();
    } catch {
      throw new Error('the server answered ' + response.status + ' without JSON');
    }
    if (!response.ok) {
      const error = body && body.error ? body.error : {};
      const hint = error.hint ? ' (' + error.hint + ')' : '';
      throw new Error((error.message || 'the server answered ' + response.status) + hint);
    }
    return body;
  }

  function showNotice(text) {
    const notice = byId('notice');
    notice.textContent = text;
    notice.hidden = !text;
  }

  function askForToken() {
    byId('token-panel').hidden = false;
    showNotice('');
  }

  function facts(listId, rows) {
    const list = byId(listId);
    list.replaceChildren();
    for (const [key, label, value] of rows) {
      const dd = el('dd', null, String(value));
      dd.dataset.fact = key;
      list.append(el('dt', null, label), dd);
    }
  }

  function formatBytes(bytes) {
    if (bytes < 1024) return bytes + ' B';
    if (bytes < 1024 * 1024) return (bytes / 1024).toFixed(1) + ' KiB';
    return (bytes / 1024 / 1024).toFixed(1) + ' MiB';
  }

  function formatTime(iso) {
    if (!iso) return 'never';
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
  }

  function describeProblem(problem) {
    return problem.code + ': ' + problem.message + (problem.hint ? ' (' + problem.hint + ')' : '');
  }

  function renderIndex(status) {
    const problem = byId('index-problem');
    problem.hidden = !status.index_error;
    problem.textContent = status.index_error ? describeProblem(status.index_error) : '';
    const index = status.index;
    if (!index) return facts('index-facts', []);
    const model = index.model === 'none' ? 'none (lexical-only)' : index.model;
    facts('index-facts', [
      ['documents', 'Documents', index.documents],
      ['chunks', 'Chunks', index.chunks],
      ['vectors', 'Embedded chunks', index.vectors],
      ['pending_embeddings', 'Waiting for a vector', index.pending_embeddings],
      ['model', 'Model', model],
      ['dimension', 'Dimension', index.dimension],
      ['last_indexed_at', 'Last indexed', formatTime(index.last_indexed_at)],
      ['db_size_bytes', 'Index size', formatBytes(index.db_size_bytes)],
      ['db_path', 'Index file', index.db_path],
      ['usage', 'Agent usage', describeUsage(index.usage)],
    ]);
  }

  function describeUsage(usage) {
    if (usage === null) return 'the usage file could not be read';
    if (!usage || usage.served === 0) return 'no search served under a task_id yet';
    const judged = usage.judged === null ? '' : ', ' + usage.judged + ' judged';
    const tasks = usage.tasks === 1 ? '1 task' : usage.tasks + ' tasks';
    return usage.served + ' documents served to ' + tasks + '; ' + usage.fetched + ' fetched' + judged;
  }

  function renderFinding(finding) {
    const item = el(
      'li',
      'finding ' + finding.severity,
      el('span', 'badge', finding.severity),
      ' ',
      el('strong', null, finding.check),
      ' ',
      finding.summary + ' (' + finding.count + ')',
    );
    if (finding.samples.length > 0) {
      const samples = finding.samples.map((sample) => el('li', null, el('code', null, sample)));
      item.append(el('ul', 'samples', ...samples));
    }
    item.append(el('p', 'remedy', 'Fix: ' + finding.remedy));
    return item;
  }

  function renderHealth(status) {
    const summary = byId('health-summary');
    const list = byId('findings');
    list.replaceChildren();
    const checkedAt = ' (checked ' + formatTime(status.doctor_checked_at) + ')';
    if (!status.doctor) {
      summary.className = 'problem';
      summary.textContent = 'doctor could not run: ' + describeProblem(status.doctor_error) + checkedAt;
      return;
    }
    const findings = status.doctor.findings;
    const count = (severity) => findings.filter((finding) => finding.severity === severity).length;
    const errors = count('error');
    const warnings = count('warning');
    const infos = count('info');
    summary.className = errors > 0 ? 'problem' : warnings > 0 ? 'warning' : 'ok';
    const tally = [
      [errors, 'error', 'errors'],
      [warnings, 'warning', 'warnings'],
      [infos, 'info', 'info'],
    ]
      .filter(([n]) => n > 0)
      .map(([n, one, many]) => n + ' ' + (n === 1 ? one : many))
      .join(', ');
    const verdict = errors + warnings === 0 ? 'OK: ' : '';
    summary.textContent =
      findings.length === 0
        ? 'OK: ' + status.doctor.checked.length + ' checks found nothing' + checkedAt
        : verdict + tally + checkedAt;
    for (const finding of findings) list.append(renderFinding(finding));
  }

  function describeActive(active) {
    if (!active) return 'idle';
    const what = active.kind === 'rebuild' ? (active.force ? 'forced rebuild' : 'rebuild_index') : 'sync';
    const embedding = active.embedding
      ? ', embedded ' + active.embedding.done + ' of ' + active.embedding.total + ' chunks'
      : '';
    return 'running ' + what + ' for ' + (active.running_ms / 1000).toFixed(1) + ' s' + embedding;
  }

  function describeChanges(summary) {
    if (!summary) return '';
    return (
      summary.indexed + ' added, ' + summary.updated + ' updated, ' + summary.renamed + ' renamed, ' +
      summary.deleted + ' deleted, ' + summary.skipped + ' skipped'
    );
  }

  function renderSync(status) {
    const watcher = status.watcher;
    const rows = [['indexing', 'Index runs', describeActive(status.indexing.active)]];
    rows.push(['completed_runs', 'Runs finished', status.indexing.completed_runs]);
    if (watcher) {
      const writer = watcher.waiting_for_writer ? ' (another process is writing the index)' : '';
      const phase = watcher.phase + writer;
      rows.push(['phase', 'Live sync', phase]);
      rows.push(['pending_paths', 'Changes waiting', watcher.pending_paths]);
      rows.push(['events', 'File events seen', watcher.events]);
      rows.push(['failures', 'Failed / refused runs', watcher.failures + ' / ' + watcher.refused]);
      if (watcher.last_failure) rows.push(['last_failure', 'Last failure', watcher.last_failure]);
    } else {
      rows.push(['phase', 'Live sync', 'off (not watching files)']);
    }
    facts('sync-facts', rows);
    const body = byId('runs').tBodies[0];
    body.replaceChildren();
    for (const run of status.indexing.recent_runs) {
      const outcome = run.error ? 'failed: ' + run.error.code + ': ' + run.error.message : 'ok';
      body.append(
        el(
          'tr',
          run.error ? 'failed' : null,
          el('td', null, formatTime(run.started_at)),
          el('td', null, run.force ? run.kind + ' (force)' : run.kind),
          el('td', null, outcome),
          el('td', null, describeChanges(run.summary)),
          el('td', null, (run.duration_ms / 1000).toFixed(2) + ' s'),
        ),
      );
    }
  }

  /** One word for a served KB's state: its folder, its index, then its doctor's worst finding. */
  function kbHealth(kb) {
    if (kb.health !== 'ok') return kb.health;
    if (kb.index_error) return 'index problem';
    if (!kb.doctor) return 'doctor could not run';
    const count = (severity) => kb.doctor.findings.filter((finding) => finding.severity === severity).length;
    if (count('error') > 0) return count('error') + ' errors';
    return count('warning') > 0 ? count('warning') + ' warnings' : 'ok';
  }

  function renderKbs(kbs) {
    byId('kbs-panel').hidden = false;
    const rows = kbs.map((kb) => {
      const health = kbHealth(kb);
      const count = (key) => (kb.index ? String(kb.index[key]) : '-');
      const name = el('td', null, el('strong', null, kb.name), ' ', el('code', 'muted', kb.kb_path || ''));
      const row = el('tr', null, name, el('td', null, count('documents')), el('td', null, count('chunks')));
      row.append(el('td', health === 'ok' ? 'ok' : 'problem', health));
      row.dataset.kb = kb.name;
      return row;
    });
    byId('kbs').tBodies[0].replaceChildren(...rows);
    const shown = kbs.find((kb) => kb.health === 'ok');
    setText('kbs-note', shown ? 'The panels below show ' + shown.name + '.' : '');
    const select = byId('kb-select');
    const chosen = select.value;
    const options = kbs.map((kb) => el('option', null, kb.name));
    select.replaceChildren(el('option', null, 'all KBs'), ...options);
    select.options[0].value = '';
    select.value = kbs.some((kb) => kb.name === chosen) ? chosen : '';
    select.hidden = false;
    byId('search-input').placeholder = 'search ' + kbs.length + ' knowledge bases';
  }

  async function refreshStatus() {
    if (refreshing) return;
    refreshing = true;
    clearTimeout(pollTimer);
    try {
      const status = await getJson('/api/status');
      byId('token-panel').hidden = true;
      showNotice('');
      setText('kb-path', status.kb_path);
      setText('updated', 'updated ' + formatTime(status.generated_at));
      renderIndex(status);
      renderHealth(status);
      renderSync(status);
      if (Array.isArray(status.kbs)) renderKbs(status.kbs);
    } catch (error) {
      if (error instanceof Unauthorized) return askForToken(); // no more polling until a token is given
      showNotice('status unavailable: ' + error.message);
    } finally {
      refreshing = false;
    }
    if (!document.hidden) pollTimer = setTimeout(refreshStatus, POLL_MS);
  }

  /** Split UTF-8 bytes at character starts only, so a cut never yields a broken character. */
  function charStart(bytes, offset) {
    let at = Math.max(0, Math.min(offset, bytes.length));
    while (at > 0 && at < bytes.length && (bytes[at] & 0xc0) === 0x80) at--;
    return at;
  }

  /** A window of the chunk around its first match, the matches (UTF-8 byte spans) marked. */
  function snippet(content, spans) {
    const bytes = new TextEncoder().encode(content);
    const decoder = new TextDecoder();
    const first = spans.length > 0 ? spans[0].start : 0;
    const from = charStart(bytes, first - 120);
    const to = charStart(bytes, from + 400);
    const node = el('p', 'snippet');
    if (from > 0) node.append('… ');
    let at = from;
    for (const span of spans) {
      const start = charStart(bytes, Math.max(span.start, at));
      const end = charStart(bytes, Math.min(span.end, to));
      if (end <= start) continue;
      node.append(decoder.decode(bytes.subarray(at, start)));
      node.append(el('mark', null, decoder.decode(bytes.subarray(start, end))));
      at = end;
    }
    node.append(decoder.decode(bytes.subarray(at, to)));
    if (to < bytes.length) node.append(' …');
    return node;
  }

  function renderHit(hit) {
    const heading = hit.heading ? el('span', 'heading', hit.heading) : null;
    const title = el('strong', 'title', hit.title || hit.path);
    return el(
      'li',
      'hit',
      el('div', 'hit-head', title, ' ', el('span', 'score', hit.score.toFixed(4))),
      el(
        'div',
        'hit-where',
        hit.kb ? el('span', 'kb', hit.kb) : null,
        el('code', 'path', hit.path),
        heading ? ' › ' : null,
        heading,
      ),
      snippet(hit.content, hit.match_spans),
    );
  }

  function describeLegs(legs) {
    return Object.entries(legs)
      .map(([name, leg]) => name + ' ' + leg.status)
      .join(', ');
  }

  async function runSearch(event) {
    event.preventDefault();
    const query = byId('search-input').value.trim();
    const results = byId('results');
    if (!query) return;
    setText('search-status', 'searching…');
    try {
      const kb = byId('kb-select').value;
      const scope = kb ? '&kb=' + encodeURIComponent(kb) : '';
      const answer = await getJson('/api/search?q=' + encodeURIComponent(query) + '&limit=10' + scope);
      results.replaceChildren(...answer.results.map(renderHit));
      const count = answer.results.length;
      // low_confidence: the top hit holds few of the query's distinctive words (docs/search.md#confidence).
      const confidence =
        count > 0 && typeof answer.confidence === 'number'
          ? '; confidence ' +
            answer.confidence.toFixed(2) +
            (answer.low_confidence ? ' (low: the top hit holds few of the distinctive words of the query)' : '')
          : '';
      const found = count + (count === 1 ? ' result' : ' results');
      const skipped = (answer.skipped || []).map((entry) => entry.kb + ': ' + entry.problem);
      const notSearched = skipped.length > 0 ? '; not searched: ' + skipped.join('; ') : '';
      setText('search-status', found + ' (' + describeLegs(answer.legs) + ')' + confidence + notSearched);
    } catch (error) {
      results.replaceChildren();
      if (error instanceof Unauthorized) askForToken();
      setText('search-status', 'search failed: ' + error.message);
    }
  }

  function useToken(event) {
    event.preventDefault();
    const token = byId('token-input').value.trim();
    if (!token) return;
    sessionStorage.setItem(TOKEN_KEY, token);
    byId('token-input').value = '';
    refreshStatus();
  }

  takeTokenFromAddress();
  byId('search-form').addEventListener('submit', runSearch);
  byId('token-form').addEventListener('submit', useToken);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) refreshStatus();
  });
  refreshStatus();
})();
`;
