import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { captureAccessToken } from './access-token.js';
import { App } from './app.js';
import './styles.css';

captureAccessToken();
const container = document.getElementById('root');
if (container === null) throw new Error('index.html has no #root element');
createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
