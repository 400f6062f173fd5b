/// The contact sheet's script: lays the cards out from the JSON a page at a time as the reader
/// scrolls (IntersectionObserver), and turns a thumbnail block into an image only when its
/// card comes near the screen, so a sheet of thousands opens as fast as one of forty. The
/// cards are laid out while the thumbnails further down the file are still being parsed; a
/// thumbnail asked for before its block is parsed waits for the end of the parse.
enum ContactSheetScript {
    static let js = #"""
    (() => {
    'use strict';
    const entries = JSON.parse(document.getElementById('entries').textContent);
    const cards = document.getElementById('cards'), more = document.getElementById('more');
    const shown = document.getElementById('shown'), form = document.getElementById('filters');
    const watchSelect = document.getElementById('watch');
    const PAGE = 40;
    let list = [], next = 0, waiting = [];

    function el(tag, cls, text) {
      const e = document.createElement(tag);
      if (cls) e.className = cls;
      if (text !== undefined) e.textContent = text;
      return e;
    }
    function seconds(s) { return s < 1 ? Math.round(s * 1000) + ' ms' : s.toFixed(s < 10 ? 2 : 1) + ' s'; }
    function bytes(n) {
      const units = ['B', 'KB', 'MB', 'GB', 'TB'];
      let i = 0;
      while (n >= 1000 && i < units.length - 1) { n /= 1000; i++; }
      return (i && n < 10 ? n.toFixed(1) : Math.round(n)) + ' ' + units[i];
    }
    // A value as the chain syntax writes it, so a step can be pasted into --chain.
    function value(v) {
      if (Array.isArray(v)) return '[' + v.map(value).join(', ') + ']';
      if (v && typeof v === 'object') return '{' + Object.keys(v).sort().map(k => k + '=' + value(v[k])).join(', ') + '}';
      if (typeof v === 'string' && /[\s|\[\]{}",=]/.test(v)) return JSON.stringify(v);
      return String(v);
    }

    const near = new IntersectionObserver(seen => {
      for (const e of seen) if (e.isIntersecting) { near.unobserve(e.target); show(e.target); }
    }, { rootMargin: '600px' });

    function show(box) {
      const block = document.getElementById('t' + box.dataset.t);
      if (!block) {
        if (document.readyState === 'loading') { waiting.push(box); return; }
        return placeholder(box, 'no thumbnail: the file ends early (was it cut short?)');
      }
      if (block.dataset.error) return placeholder(box, block.dataset.error);
      const img = new Image();
      img.alt = box.dataset.alt;
      img.decoding = 'async';
      img.onload = () => { if (!performance.getEntriesByName('first-thumbnail').length) performance.mark('first-thumbnail'); };
      img.src = 'data:' + block.dataset.mime + ';base64,' + block.textContent.trim();
      box.append(img);
      if (block.dataset.note) box.parentNode.append(el('div', 'note', block.dataset.note));
    }
    function placeholder(box, why) {
      box.classList.add('placeholder');
      box.textContent = why;
      box.title = why;
    }
    document.addEventListener('DOMContentLoaded', () => { const w = waiting; waiting = []; w.forEach(show); });

    function thumb(id, caption, alt) {
      const f = el('figure'), box = el('div', 'box');
      box.dataset.t = id;
      box.dataset.alt = alt;
      f.append(box, el('figcaption', '', caption));
      near.observe(box);
      return f;
    }

    function chain(out) {
      const p = el('div', 'chain');
      out.chain.forEach((step, i) => {
        if (i) p.append(' | ');
        p.append(step.filter);
        for (const k of Object.keys(step.parameters).sort()) {
          const drawn = step.random.includes(k);
          const s = el('span', drawn ? 'drawn' : '', ' ' + k + '=' + value(step.parameters[k]));
          if (drawn) s.title = 'drawn at random (seed ' + out.seed + ')';
          p.append(s);
        }
      });
      return p;
    }

    function card(e) {
      const a = el('article', 'card ' + e.status);
      a.dataset.input = e.input;
      a.dataset.status = e.status;
      a.dataset.watch = e.watch;
      const name = e.input.split('/').pop();
      const h = el('header');
      h.append(el('span', 'badge', e.status), el('span', 'name', name), el('span', 'muted', 'watch ' + e.watch),
               el('time', 'muted', e.finished.replace('T', ' ').replace('Z', ' UTC')));
      a.append(h, el('div', 'path muted', e.input + (e.now ? '  → now ' + e.now : '')));
      if (e.error) {
        const p = el('p', 'error');
        p.append(el('code', '', e.error.code), ': ' + e.error.message);
        a.append(p);
      }
      if (e.warning) a.append(el('p', 'note', 'warning: ' + e.warning));
      a.append(el('div', 'times', 'total ' + seconds(e.total) + ' · decode ' + seconds(e.decode) + ' · encode ' +
                  seconds(e.encode) + ' · waited ' + seconds(e.waited) + ' in the queue'));
      const row = el('div', 'row');
      const facts = [e.format || 'not an image', e.width ? e.width + '×' + e.height : '', bytes(e.bytes)].filter(Boolean);
      row.append(thumb(e.thumbnail, 'input · ' + facts.join(' · '), name));
      if (e.outputs.length) {
        row.append(el('span', 'arrow', '→'));
        const outs = el('div', 'outputs');
        e.outputs.forEach((o, i) => {
          const d = el('div', 'output'), info = el('div');
          const drawn = o.chain.flatMap(s => s.random.map(k => s.filter + ' ' + k + '=' + value(s.parameters[k])));
          info.append(el('div', 'path', o.path), chain(o),
                      el('div', 'times', 'seed ' + o.seed + (drawn.length ? ' · drawn at random: ' + drawn.join(', ') : '')));
          d.append(thumb(e.thumbnail + 1 + i, o.format + ' · ' + o.width + '×' + o.height + ' · ' + bytes(o.bytes),
                         o.path.split('/').pop()), info);
          outs.append(d);
        });
        row.append(outs);
      }
      a.append(row);
      return a;
    }

    function page() {
      const end = Math.min(next + PAGE, list.length), frag = document.createDocumentFragment();
      for (; next < end; next++) frag.append(card(list[next]));
      cards.append(frag);
      shown.textContent = 'showing ' + next + ' of ' + list.length +
        (list.length < entries.length ? ' (of ' + entries.length + ' in all)' : '') + ', failures first, then the most recent';
      more.hidden = next >= list.length;
      more.textContent = 'scroll for more';
    }
    // Another page while the bottom of the list is near the screen.
    function fill() {
      if (next < list.length && more.getBoundingClientRect().top < innerHeight + 1200) { page(); requestAnimationFrame(fill); }
    }
    function apply() {
      const statuses = new Set(Array.from(form.querySelectorAll('input[name=status]:checked'), i => i.value));
      const watch = watchSelect.value;
      list = entries.filter(e => statuses.has(e.status) && (!watch || e.watch === watch));
      near.disconnect();
      cards.replaceChildren();
      next = 0;
      page();
      requestAnimationFrame(fill);
    }
    new IntersectionObserver(seen => { if (seen.some(e => e.isIntersecting)) fill(); }, { rootMargin: '1200px' }).observe(more);
    form.addEventListener('change', apply);
    form.addEventListener('submit', e => e.preventDefault());
    apply();
    })();
    """#
}
