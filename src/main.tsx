import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { loadLang } from './app/i18n/catalog';
import { startLang } from './app/load';
import { set } from './app/store';
import { installTabIndexFix } from './app/preactTabIndex';
import { installStableTextFix } from './app/preactText';
import { installTestHooks } from './app/testHooks';
import './app/styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
installTabIndexFix();
installStableTextFix();
installTestHooks();
// The page's language before the first render: a non-English catalog is a chunk of its own
// (boot.ts has already asked for it), and no frame may show English or keys on a 中文 page.
// Not a top-level await: one in the app's graph makes the bundler split it into many more chunks.
void loadLang(startLang()).then((lang) => {
  set({ lang });
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
});
