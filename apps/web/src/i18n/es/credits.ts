import type en from '../en/credits.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Créditos de este periodo',
  used: '{{used}} <muted>de {{limit}} usados</muted>',
  progress: 'Créditos usados',
  plan: 'Plan {{plan}}. Se renuevan el {{date}}. Cada respuesta de la IA cuesta un crédito.',
  exhausted:
    'Has usado todos tus créditos: los asistentes dejan de responder hasta el {{date}} o hasta que mejores tu plan.',
  nearly: 'Has usado el {{percent}} % de tus créditos de este periodo.',
} satisfies Translation<typeof en>;
