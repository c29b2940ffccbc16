// Picks the theme before the first paint, so a dark-mode user never sees a white flash. A file of
// its own, not an inline script: the Content-Security-Policy allows scripts from the app only.
if (window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches) document.documentElement.dataset.theme = 'dark';
