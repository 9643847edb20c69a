/** The credits card (apps/web/src/features/credits). */
export default {
  title: 'Credits this period',
  used: '{{used}} <muted>of {{limit}} used</muted>',
  progress: 'Credits used',
  plan: 'Plan {{plan}}. Resets on {{date}}. Every AI reply costs one credit.',
  exhausted: 'You have used all your credits: assistants stop answering until {{date}} or until you upgrade.',
  nearly: 'You have used {{percent}}% of your credits for this period.',
};
