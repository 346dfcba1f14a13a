// The page's one script of its own, placed in the page by the server (apps/server/src/config/
// first-paint.ts, with its hash in the Content-Security-Policy) after the app's root element. It
// starts the app: its entry module (data-entry), with the modules that entry needs at once asked for
// beside it (data-preloads), and those of the screen the address shows (data-screens: per route
// start, the screen's chunks and style sheets that the entry does not load), which would otherwise
// be asked for only once the entry has arrived and run (decision 0243). On a first visit to the
// dashboard, the page's template holds the hero as static markup (in the language and theme a first
// visit gets); it is shown at once, and the app's code is asked for once the hero's picture has
// arrived (at most 800 ms later), so that the largest picture of the screen has the line to itself.
// The app draws its own screen behind it and takes its place (apps/web/src/app/firstPaint.ts).
(function () {
  var script = document.currentScript;
  var entry = script.dataset.entry;
  var preloads = (script.dataset.preloads || '').split(' ').filter(Boolean);
  // Per screen, the start of its route and its files: 'start file file;start file …'.
  var screens = (script.dataset.screens || '')
    .split(';')
    .filter(Boolean)
    .map(function (screen) {
      return screen.split(' ');
    });
  var picture = null;

  function endFirstPaint() {
    var shown = document.getElementById('vt-first-paint');
    if (shown) shown.remove();
  }

  try {
    var template = document.getElementById('vt-first-paint-template');
    var hash = window.location.hash;
    var locale = window.localStorage.getItem('locale');
    // A visitor who chose a theme or another language gets the app's first screen instead.
    if (
      template &&
      (hash === '' || hash === '#' || hash === '#/') &&
      window.localStorage.getItem('theme') === null &&
      (locale === null || locale === template.dataset.locale)
    ) {
      document.getElementById('root').before(template.content.cloneNode(true));
      picture = document.querySelector('#vt-first-paint img');
    }
  } catch {
    // No storage to read (a browser's private mode may refuse it): no first paint.
    endFirstPaint();
  }

  /** The files of the screen at this address (`#/search/*` is at `/search`). */
  function screenFiles() {
    var at = window.location.hash.slice(1).split('?')[0];
    for (var i = 0; i < screens.length; i++) {
      var start = screens[i][0];
      if (at === start || at.indexOf(start + '/') === 0) return screens[i].slice(1);
    }
    return [];
  }

  function start() {
    preloads.concat(screenFiles()).forEach(function (href) {
      var link = document.createElement('link');
      var style = /\.css$/.test(href);
      // A style sheet is only fetched: the app's load of the screen applies it.
      link.rel = style ? 'preload' : 'modulepreload';
      if (style) link.as = 'style';
      link.crossOrigin = '';
      link.href = href;
      document.head.append(link);
    });
    // An entry that cannot be loaded leaves the page empty, as its module script did before.
    import(entry).catch(endFirstPaint);
  }

  if (!picture || picture.complete) {
    start();
    return;
  }
  var started = false;
  function afterPicture() {
    if (started) return;
    started = true;
    // After the frame that draws the picture.
    window.requestAnimationFrame(function () {
      window.setTimeout(start, 0);
    });
  }
  picture.addEventListener('load', afterPicture);
  picture.addEventListener('error', afterPicture);
  window.setTimeout(afterPicture, 800);
})();
