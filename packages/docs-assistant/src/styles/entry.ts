// Build-only entry: Vite gathers this import into `dist/docs-assistant.css` (the package's
// `./styles.css` export). The library's JS never imports CSS, so hosts choose when to load it.
import './docs-assistant.css';
