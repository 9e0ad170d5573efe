// KaTeX with its stylesheet (and the fonts it names, bundled by Vite), as one chunk that
// MathText loads only where math is shown.
import 'katex/dist/katex.min.css';

export { default as katex } from 'katex';
