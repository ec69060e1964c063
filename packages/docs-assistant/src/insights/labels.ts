/** Every string the insights panel shows; functions take the values they show. */
export interface InsightsPanelLabels {
  title: string;
  from: string;
  to: string;
  apply: string;
  loading: string;
  failed: (message: string) => string;
  retry: string;
  /** No question in the range. */
  empty: (from: string, to: string) => string;
  none: string;
  questions: string;
  conversations: string;
  readers: string;
  searches: string;
  agentCalls: string;
  uncertainShare: string;
  satisfaction: string;
  date: string;
  trends: string;
  dailyTable: string;
  /** A chart's text alternative: its figures in a sentence. */
  chartSummary: (title: string, from: string, to: string, figures: string) => string;
  gaps: string;
  gapsCaption: string;
  topQuestions: string;
  topQuestionsCaption: string;
  /** The legend of the conversations' filters. */
  filter: string;
  topic: string;
  examples: string;
  closestPage: string;
  noClosePage: string;
  uncertain: string;
  /** The conversations' column of questions, the uncertain ones in brackets. */
  questionsUncertain: string;
  votes: string;
  search: string;
  noResults: string;
  clickThrough: string;
  query: string;
  clicks: string;
  pages: string;
  cited: string;
  downVoted: string;
  askedOn: string;
  page: string;
  count: string;
  onlyUncertain: string;
  onlyDownVoted: string;
  started: string;
  firstQuestion: string;
  vote: string;
  language: string;
  more: string;
  /** The first question of a conversation whose text is past the retention window. */
  textExpired: string;
  transcript: (startedAt: string) => string;
  back: string;
  reader: string;
  assistant: string;
  sources: string;
  votedUp: string;
  votedDown: string;
}

export const defaultInsightsLabels: InsightsPanelLabels = {
  title: 'Assistant insights',
  from: 'From',
  to: 'To',
  apply: 'Show',
  loading: 'Loading insights…',
  failed: (message) => `The insights could not be loaded: ${message.replace(/\.$/, '')}.`,
  retry: 'Retry',
  empty: (from, to) => `No questions were asked from ${from} to ${to}.`,
  none: 'None in this period.',
  questions: 'Questions',
  conversations: 'Conversations',
  readers: 'Readers',
  searches: 'Searches',
  agentCalls: 'AI agent calls',
  uncertainShare: 'Uncertain answers',
  satisfaction: 'Satisfaction',
  date: 'Date',
  trends: 'Over time',
  dailyTable: 'Daily figures as a table',
  chartSummary: (title, from, to, figures) => `${title}, ${from} to ${to}: ${figures}`,
  gaps: 'Coverage gaps',
  gapsCaption: 'Questions the docs did not answer, grouped by topic, largest first',
  topQuestions: 'Top questions',
  topQuestionsCaption: 'What readers ask, paraphrases grouped, most asked first',
  filter: 'Filter',
  topic: 'Topic',
  examples: 'Example',
  closestPage: 'Closest page',
  noClosePage: 'No page comes close',
  uncertain: 'Uncertain',
  questionsUncertain: 'Questions (uncertain)',
  votes: 'Votes (up / down)',
  search: 'Search',
  noResults: 'Searches without results',
  clickThrough: 'Click-through',
  query: 'Query',
  clicks: 'Clicks',
  pages: 'Pages',
  cited: 'Most cited in answers',
  downVoted: 'Most down-voted',
  askedOn: 'Questions asked on',
  page: 'Page',
  count: 'Count',
  onlyUncertain: 'Uncertain only',
  onlyDownVoted: 'Down-voted only',
  started: 'Started',
  firstQuestion: 'First question',
  vote: 'Vote',
  language: 'Language',
  more: 'Show more conversations',
  textExpired: '(text past the retention window)',
  transcript: (startedAt) => `Conversation of ${startedAt}`,
  back: 'Back to the conversations',
  reader: 'Reader',
  assistant: 'Assistant',
  sources: 'Sources',
  votedUp: 'Voted up',
  votedDown: 'Voted down',
};
