// The dashboard's entry: the credential field, the connection badge and a hash router.
import { credential, setCredential, onConnectionChange } from './api.js';
import { overview } from './overview.js';
import { pipelineView } from './pipeline.js';
import { simulateView } from './simulate.js';

const view = document.getElementById('view');
const token = document.getElementById('token');
const badge = document.getElementById('connection');
let current = null;

token.value = credential();
token.addEventListener('change', () => { setCredential(token.value.trim()); route(); });
onConnectionChange(state => { badge.dataset.state = state; badge.textContent = state; });

function route() {
  current?.close();
  view.replaceChildren();
  const hash = location.hash.replace(/^#/, '') || '/';
  const pipeline = hash.match(/^\/pipelines\/([^/]+)$/);
  if (pipeline) current = pipelineView(view, decodeURIComponent(pipeline[1]));
  else if (hash === '/simulate') current = simulateView(view);
  else current = overview(view);
}

window.addEventListener('hashchange', route);
route();
