/**
 * A server component: it renders the widget straight from the package's entry, which is marked
 * "use client", exactly as the README tells Next.js users to do. The service's URL, key and domain
 * are read per request, so one `next build` serves every test run whatever port the service has.
 * With `DOCS_ASSISTANT_VIA_PROXY=1` the key stays on the server: the widget gets only `api`, the
 * address of this app's route (app/api/assistant/route.ts), which forwards with the key.
 */
import { DocsAssistant } from 'docs-assistant';
import 'docs-assistant/styles.css';
import Link from 'next/link';
import type { ReactNode } from 'react';

export const dynamic = 'force-dynamic';

export const metadata = { title: 'Acme Widgets docs' };

function required(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`Set ${name} before starting the consumer app (see tests/consumers/next.test.ts).`);
  return value;
}

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <nav aria-label="Documentation">
          <Link href="/">Getting started</Link> <Link href="/guide">Theming guide</Link>
        </nav>
        <main>{children}</main>
        {process.env.DOCS_ASSISTANT_VIA_PROXY === '1' ? (
          <DocsAssistant domain={required('DOCS_ASSISTANT_DOMAIN')} api="/api/assistant" />
        ) : (
          <DocsAssistant
            domain={required('DOCS_ASSISTANT_DOMAIN')}
            apiKey={required('DOCS_ASSISTANT_KEY')}
            baseUrl={required('DOCS_ASSISTANT_URL')}
          />
        )}
      </body>
    </html>
  );
}
