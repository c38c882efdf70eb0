/** Every TanStack Query key the app uses, so invalidation and persistence refer to one list. */
export const queryKeys = {
  status: ['status'] as const,
  notice: ['notice'] as const,
  self: ['user', 'self'] as const,
  affiliate: ['user', 'aff'] as const,
  exchangeRate: ['exchange-rate'] as const,
  pricing: ['pricing'] as const,
  versions: ['versions'] as const,
  incidents: ['incidents'] as const,
  tokens: ['tokens'] as const,
  tokenList: (keyword: string) => ['tokens', 'list', keyword] as const,
  logs: ['logs'] as const,
  logPage: (filters: object, page: number) => ['logs', 'self', filters, page] as const,
  statistics: ['statistics'] as const,
  statisticsRange: (startSeconds: number, endSeconds: number) =>
    ['statistics', 'self', startSeconds, endSeconds] as const,
  chats: ['chats'] as const,
  chatMessages: (chatId: number) => ['chats', chatId, 'messages'] as const,
  chat: (chatId: number) => ['chats', chatId] as const,
  chatModels: ['chat-models'] as const,
  payments: ['payments'] as const,
  paymentPage: (page: number) => ['payments', 'logs', page] as const,
} as const;
