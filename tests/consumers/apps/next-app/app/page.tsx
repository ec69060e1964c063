import { HydrationMark } from './hydration-mark';

/** A docs page whose code blocks are rendered on the server, where the code-block collector looks. */
export default function GettingStarted() {
  return (
    <article>
      <h1>Getting started</h1>
      <h2>Installation</h2>
      <p>Install the package with npm. It needs Node 20 or later.</p>
      <pre>
        <code className="language-bash">npm install acme-widgets</code>
      </pre>
      <h2>First widget</h2>
      <p>
        Import the component and render it once near the root of your app. The widget reads its API key from
        the <code>apiKey</code> prop.
      </p>
      <pre>
        <code className="language-tsx">{`import { Widget } from 'acme-widgets';

export function App() {
  return <Widget apiKey="pk_live_123" />;
}`}</code>
      </pre>
      <HydrationMark />
    </article>
  );
}
