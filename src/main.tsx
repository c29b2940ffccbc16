// First: no schema may be built before zod's eval-based compiler is off (the CSP forbids eval).
import './scenario/zodConfig';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { installTabIndexFix } from './app/preactTabIndex';
import { installStableTextFix } from './app/preactText';
import { installTestHooks } from './app/testHooks';
import './app/styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html lacks #root');
installTabIndexFix();
installStableTextFix();
installTestHooks();
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
