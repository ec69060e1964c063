/**
 * The options every layout page gives the widget: every feature the header can offer on (search,
 * share and feedback come from the service's `/health`, history from the kept conversations,
 * support from `support`), the reference service's test domain and key, and the light theme
 * (`?theme=dark` for the dark one, as the screenshots take it).
 */
export const SITE = {
  domain: 'acme',
  apiKey: 'svc_dsc_test_assistant',
  storage: 'memory',
  support: 'mailto:help@example.com',
} as const;

export const theme = (params: URLSearchParams) => (params.get('theme') === 'dark' ? 'dark' : 'light');
