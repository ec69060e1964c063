/**
 * The answers of the service's insights API (`GET /discovery/v1/insights/{domain}/…`, admin key),
 * as the dashboard panel reads them through the host's route (`createInsightsHandler`). Dates are
 * `YYYY-MM-DD` in UTC, `from` and `to` both included. See docs/insights.md for the whole contract.
 */

/** The counts of a period or a day. */
export interface InsightsCounts {
  questions: number;
  conversations: number;
  readers: number;
  searches: number;
  agentCalls: number;
  /** Questions answered uncertainly: declined, no source above the threshold, or voted down. */
  uncertain: number;
  up: number;
  down: number;
}

export interface InsightsDay extends InsightsCounts {
  date: string;
}

/** `GET …/stats?from&to`. */
export interface InsightsStats {
  from: string;
  to: string;
  totals: InsightsCounts;
  /** `uncertain / questions`, 0 to 1 (null when there were no questions). */
  uncertainShare: number | null;
  /** `up / (up + down)`, 0 to 1 (null without votes). */
  satisfaction: number | null;
  languages: { language: string; questions: number }[];
  daily: InsightsDay[];
}

export interface InsightsPageRef {
  path: string;
  title?: string;
}

/** A group of questions that mean the same (`GET …/questions`). */
export interface QuestionGroup {
  id: string;
  label: string;
  questions: number;
  uncertain: number;
  up: number;
  down: number;
  examples: string[];
  pages: (InsightsPageRef & { count: number })[];
}

/** A group of questions the docs do not answer (`GET …/gaps`), largest first. */
export interface CoverageGap {
  id: string;
  label: string;
  questions: number;
  examples: string[];
  /** The existing page closest to the topic, or null when nothing comes near. */
  closest: (InsightsPageRef & { score: number }) | null;
}

/** `GET …/search?from&to&limit`. */
export interface SearchInsights {
  totals: { searches: number; noResults: number; clicks: number; clickThrough: number | null };
  top: { query: string; searches: number; clicks: number }[];
  noResults: { query: string; searches: number }[];
}

/** `GET …/pages?from&to&limit`: pages cited in answers, voted down, and where readers asked. */
export interface PageInsights {
  /** Cited in answers, most first, with the votes on the answers that cited them. */
  cited: (InsightsPageRef & { citations: number; up: number; down: number })[];
  /** The pages of down-voted answers, most down-votes first. */
  downVoted: (InsightsPageRef & { down: number; up: number })[];
  asked: { currentPath: string; questions: number }[];
}

export type InsightsVote = 'up' | 'down' | null;

/** A row of `GET …/conversations`. */
export interface ConversationRow {
  threadId: string;
  startedAt: string;
  questions: number;
  uncertain: number;
  vote: InsightsVote;
  /** The first question (secrets masked); null once past the retention window. */
  first: string | null;
  language: string | null;
}

/** `GET …/conversations/{threadId}`. */
export interface Transcript {
  threadId: string;
  startedAt: string;
  messages: {
    role: 'user' | 'assistant' | (string & {});
    /** Null once past the retention window. */
    text: string | null;
    at: string;
    sources: (InsightsPageRef & { score?: number })[];
    uncertain?: boolean;
    vote?: InsightsVote;
  }[];
}

/** A list the API pages through: the next page's `cursor`, or null at the end. */
export interface Paged<T> {
  items: T[];
  next: string | null;
}
