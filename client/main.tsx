import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';
import { App } from './App';
import { i18n, initI18n } from './i18n';
import { registerWorker, takeNewVersion } from './pwa';
// The faces the design uses come with the build (Noto Serif; Chinese: i18n/index.ts), so the board looks
// the same on every system: each file's unicode-range means a page downloads only the alphabets it shows.
import '@fontsource-variable/noto-serif/wght.css';
import '@fontsource-variable/noto-serif/wght-italic.css';
import './styles.css';

// StrictMode stays on: in development it mounts every effect twice, and that is how the Debug panel lost
// the board (a boardgame.io subscriber numbering fault that changing the shown seat also hit, in any
// build; client/local/debugAI.ts). The fix is a client with one subscription, not a page without checks.
// A new version waiting in the service worker is taken now, before anything is drawn (client/pwa.ts);
// the words load meanwhile.
const words = initI18n();
void takeNewVersion().then(async (reloading) => {
  if (reloading) return;
  await words;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <App />
      </I18nextProvider>
    </StrictMode>,
  );
  registerWorker();
});
