// Picks the theme before the first paint, so a dark-mode user never sees a white flash. A file of
// its own, not an inline script: the Content-Security-Policy allows scripts from the app only.
if (window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches) document.documentElement.dataset.theme = 'dark';
// …and the language of the static first frame (index.html shows its title in both; CSS keeps one),
// by the app's rule (src/scenario/url.ts): an explicit ?lang=en|zh wins, else the browser's language.
(function () {
  var param = /[?&]lang=(en|zh)(?:[-_][a-z]+)?(?:&|$)/i.exec(location.search);
  var lang = param ? param[1].toLowerCase() : (navigator.language || '').toLowerCase().slice(0, 2);
  if (lang === 'zh') document.documentElement.lang = 'zh-CN';
})();
