/**
 * A server component: it renders the widget straight from the package's entry, which is marked
 * "use client", exactly as the README tells Next.js users to do. The service's URL, key and domain
 * are read per request, so one `next build` serves every test run whatever port the service has.
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
        <DocsAssistant
          domain={required('DOCS_ASSISTANT_DOMAIN')}
          apiKey={required('DOCS_ASSISTANT_KEY')}
          baseUrl={required('DOCS_ASSISTANT_URL')}
        />
      </body>
    </html>
  );
}
