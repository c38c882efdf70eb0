/** Every topic of the platform. Compacted topics carry whole entities keyed by id and act as replicated tables. */
export const TOPICS = {
  usageRecorded: { name: 'usage.recorded', compacted: false },
  identityUser: { name: 'identity.user', compacted: true },
  identityToken: { name: 'identity.token', compacted: true },
  catalogChannel: { name: 'catalog.channel', compacted: true },
  catalogChannelModels: { name: 'catalog.channel-models', compacted: true },
  catalogOption: { name: 'catalog.option', compacted: true },
  billingPrice: { name: 'billing.price', compacted: true },
  billingBalance: { name: 'billing.balance', compacted: true },
  billingPayment: { name: 'billing.payment', compacted: false },
  auditRecorded: { name: 'audit.recorded', compacted: false },
} as const;

export type TopicKey = keyof typeof TOPICS;
export type TopicName = (typeof TOPICS)[TopicKey]['name'];

export const ALL_TOPICS = Object.values(TOPICS);
