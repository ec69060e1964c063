// Vite's `?inline` CSS imports: the stylesheet's text, for the embed's shadow root.
declare module '*.css?inline' {
  const css: string;
  export default css;
}
