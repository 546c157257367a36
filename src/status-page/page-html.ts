// The status page's HTML: a fixed shell with empty slots that /ui/app.js fills from /api/status and /api/search.
// The search comes first (the wide left column on a desktop screen, the top of the page on a narrow one); the
// index, health and sync panels share the right column. A server of several KBs also fills the KB list (top of the
// right column) and the KB picker beside the query; the panels below the list show its first serving KB.
// It holds no knowledge-base data, which is why it may be served without the token; no inline script or style
// (the Content-Security-Policy allows only this server's own files).
export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>groove status</title>
<link rel="icon" href="/ui/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/ui/app.css">
<script src="/ui/app.js" defer></script>
</head>
<body>
<header>
  <h1>groove</h1>
  <span id="kb-path" class="muted"></span>
  <span id="updated" class="muted"></span>
</header>
<p id="notice" role="status" hidden></p>
<section id="token-panel" hidden>
  <h2>Token required</h2>
  <p>This server asks for its bearer token (<code>GROOVE_HTTP_TOKEN</code> or <code>[transport.http] token</code>).
  It is kept in this tab only (session storage) and sent as an <code>Authorization</code> header.</p>
  <form id="token-form">
    <input id="token-input" type="password" autocomplete="off" aria-label="token">
    <button type="submit">Use token</button>
  </form>
</section>
<main>
  <section id="search-panel">
    <h2>Search</h2>
    <form id="search-form" role="search">
      <input id="search-input" type="search" name="q" placeholder="search the knowledge base" aria-label="query" autofocus>
      <select id="kb-select" aria-label="knowledge base" hidden><option value="">all KBs</option></select>
      <button type="submit">Search</button>
    </form>
    <p id="search-status" class="muted"></p>
    <ol id="results"></ol>
  </section>
  <div id="status-column">
    <section id="kbs-panel" hidden>
      <h2>Knowledge bases</h2>
      <table id="kbs">
        <thead><tr><th>KB</th><th>documents</th><th>chunks</th><th>health</th></tr></thead>
        <tbody></tbody>
      </table>
      <p id="kbs-note" class="muted"></p>
    </section>
    <section id="index-panel">
      <h2>Index</h2>
      <p id="index-problem" class="problem" hidden></p>
      <dl id="index-facts"></dl>
    </section>
    <section id="health-panel">
      <h2>Health</h2>
      <p id="health-summary"></p>
      <ul id="findings"></ul>
    </section>
    <section id="sync-panel">
      <h2>Indexing and live sync</h2>
      <dl id="sync-facts"></dl>
      <table id="runs">
        <thead><tr><th>started</th><th>run</th><th>outcome</th><th>changes</th><th>took</th></tr></thead>
        <tbody></tbody>
      </table>
    </section>
  </div>
</main>
</body>
</html>
`;
