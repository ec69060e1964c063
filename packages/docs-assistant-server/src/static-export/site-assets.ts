/**
 * The one stylesheet and the one script of an exported site. Plain text, no dependencies, nothing
 * loaded from another host. The script builds its results with DOM APIs (`textContent`), never
 * `innerHTML`, so index text cannot inject markup.
 */

export const SITE_CSS = `:root {
  --da-bg: #ffffff;
  --da-fg: #1f2328;
  --da-muted: #59636e;
  --da-border: #d1d9e0;
  --da-accent: #0969da;
  --da-code-bg: #f6f8fa;
  --da-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --da-mono: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  color-scheme: light dark;
}
@media (prefers-color-scheme: dark) {
  :root {
    --da-bg: #0d1117;
    --da-fg: #e6edf3;
    --da-muted: #9198a1;
    --da-border: #3d444d;
    --da-accent: #4493f8;
    --da-code-bg: #151b23;
  }
}
* { box-sizing: border-box; }
body { margin: 0; background: var(--da-bg); color: var(--da-fg); font: 16px/1.6 var(--da-font); }
a { color: var(--da-accent); }
.da-skip { position: absolute; left: -9999px; }
.da-skip:focus { left: 1rem; top: 1rem; background: var(--da-bg); padding: 0.5rem; z-index: 2; }
.da-header { display: flex; align-items: center; gap: 1rem; flex-wrap: wrap; padding: 0.75rem 1.5rem; border-bottom: 1px solid var(--da-border); }
.da-site-title { font-weight: 600; color: inherit; text-decoration: none; }
.da-search { position: relative; margin-left: auto; display: flex; align-items: center; gap: 0.5rem; }
.da-search label { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.da-search input { font: inherit; padding: 0.3rem 0.6rem; border: 1px solid var(--da-border); border-radius: 6px; background: var(--da-bg); color: inherit; width: 16rem; }
.da-search-results { position: absolute; top: 100%; right: 0; width: 22rem; max-height: 60vh; overflow: auto; margin: 0.25rem 0 0; padding: 0; list-style: none; background: var(--da-bg); border: 1px solid var(--da-border); border-radius: 6px; z-index: 1; }
.da-search-results:empty { display: none; }
.da-search-results li { padding: 0.5rem 0.75rem; border-bottom: 1px solid var(--da-border); }
.da-search-results small { display: block; color: var(--da-muted); }
.da-layout { display: flex; align-items: flex-start; }
.da-sidebar { flex: 0 0 16rem; padding: 1rem 1.5rem; position: sticky; top: 0; max-height: 100vh; overflow: auto; }
.da-sidebar ul { list-style: none; margin: 0; padding: 0; }
.da-sidebar ul ul { padding-left: 0.75rem; }
.da-sidebar li { margin: 0.2rem 0; }
.da-sidebar a { color: var(--da-muted); text-decoration: none; }
.da-sidebar a[aria-current="page"] { color: var(--da-accent); font-weight: 600; }
.da-group > span { display: block; margin-top: 0.75rem; font-weight: 600; }
.da-content { flex: 1 1 auto; min-width: 0; max-width: 52rem; padding: 1rem 2rem 4rem; }
pre { background: var(--da-code-bg); padding: 1rem; border-radius: 6px; overflow: auto; }
code { font-family: var(--da-mono); font-size: 0.9em; }
:not(pre) > code { background: var(--da-code-bg); padding: 0.1em 0.3em; border-radius: 4px; }
table { border-collapse: collapse; display: block; overflow: auto; }
th, td { border: 1px solid var(--da-border); padding: 0.4rem 0.7rem; }
img { max-width: 100%; }
blockquote { margin: 0; padding-left: 1rem; border-left: 3px solid var(--da-border); color: var(--da-muted); }
@media (max-width: 48rem) {
  .da-layout { display: block; }
  .da-sidebar { position: static; max-height: none; border-bottom: 1px solid var(--da-border); }
  .da-search input, .da-search-results { width: 100%; }
}
`;

export const SEARCH_SCRIPT = `// Client-side search over search-index.json, built at export time.
(function () {
  'use strict';
  var root = document.documentElement.getAttribute('data-root') || '';
  var index = null;
  function load() {
    if (index) return Promise.resolve(index);
    return fetch(root + 'search-index.json')
      .then(function (r) { if (!r.ok) throw new Error(String(r.status)); return r.json(); })
      .then(function (data) { index = data; return data; });
  }
  function score(entry, terms) {
    var title = entry.title.toLowerCase();
    var headings = entry.headings.join(' ').toLowerCase();
    var text = (entry.description + ' ' + entry.text).toLowerCase();
    var total = 0;
    for (var i = 0; i < terms.length; i++) {
      var t = terms[i];
      var s = (title.indexOf(t) >= 0 ? 5 : 0) + (headings.indexOf(t) >= 0 ? 3 : 0) + (text.indexOf(t) >= 0 ? 1 : 0);
      if (!s) return 0;
      total += s;
    }
    return total;
  }
  function init() {
    var form = document.querySelector('[data-search]');
    var input = document.querySelector('[data-search-input]');
    var list = document.querySelector('[data-search-results]');
    if (!form || !input || !list) return;
    form.addEventListener('submit', function (e) { e.preventDefault(); });
    function show(items, message) {
      while (list.firstChild) list.removeChild(list.firstChild);
      if (message) { var li = document.createElement('li'); li.textContent = message; list.appendChild(li); }
      items.forEach(function (entry) {
        var li = document.createElement('li');
        var a = document.createElement('a');
        a.href = root + entry.file;
        a.textContent = entry.title;
        li.appendChild(a);
        if (entry.description) { var s = document.createElement('small'); s.textContent = entry.description; li.appendChild(s); }
        list.appendChild(li);
      });
    }
    input.addEventListener('input', function () {
      var q = input.value.trim().toLowerCase();
      if (!q) { show([]); return; }
      var terms = q.split(/\\s+/);
      load().then(function (data) {
        if (input.value.trim().toLowerCase() !== q) return;
        var hits = data
          .map(function (entry) { return { entry: entry, score: score(entry, terms) }; })
          .filter(function (h) { return h.score > 0; })
          .sort(function (a, b) { return b.score - a.score; })
          .slice(0, 10)
          .map(function (h) { return h.entry; });
        show(hits, hits.length ? '' : 'No results for "' + input.value.trim() + '"');
      }, function () { show([], 'Search is unavailable: the search index could not be loaded.'); });
    });
    input.addEventListener('keydown', function (e) { if (e.key === 'Escape') { input.value = ''; show([]); } });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init); else init();
})();
`;
