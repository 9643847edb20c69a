import type en from '../en/billing.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Facturación',
  checkoutDone:
    'Gracias. Estamos confirmando tu pago: el nuevo plan aparecerá aquí en cuanto Stripe nos lo comunique.',
  checkoutCancelled: 'Se canceló el pago; no cambió nada.',
  readonly:
    'Solo el propietario del espacio de trabajo cambia el plan, los métodos de pago y las facturas. Tú puedes ver el plan y los créditos.',
  plans: {
    free: { name: 'Free', credits: '50 créditos al mes', notes: '100 contactos, 50 tickets' },
    pro: {
      name: 'Pro',
      credits: '1.200 créditos al mes',
      notes: '5.000 contactos, 1.000 tickets, SMS y otros canales, escritura por API',
    },
    enterprise: {
      name: 'Enterprise',
      credits: 'Créditos según lo acordado',
      notes: 'Contactos y tickets ilimitados, SSO, soporte dedicado',
    },
  },
  trialLabel: '{{plan}} (prueba)',
  price: { custom: 'A medida', free: 'Gratis', monthly: '{{amount}} al mes' },
  current: {
    title: 'Plan actual',
    daysLeft_one: 'Queda {{count}} día de tu prueba de Pro (termina el {{date}}).',
    daysLeft_other: 'Quedan {{count}} días de tu prueba de Pro (termina el {{date}}).',
    upgradeYou: 'Mejora tu plan antes para conservar Pro; si no, el espacio de trabajo pasa a Free.',
    upgradeOwner:
      'El propietario del espacio de trabajo puede mejorar el plan antes para conservar Pro; si no, el espacio de trabajo pasa a Free.',
    upgradeNobody: 'Después el espacio de trabajo pasa a Free, salvo que el operador cambie su plan.',
    cancelled:
      'Cancelado: {{plan}} sigue hasta el {{date}} y después el espacio de trabajo pasa a Free. Los datos se eliminan 30 días después de cancelar.',
    moves: 'Pasa a {{plan}} el {{date}}.',
    status: 'Estado de la facturación: {{status}}.',
    contacts: 'Contactos',
    tickets: 'Tickets',
    usage: '{{used}} de {{limit}}',
    unlimited: 'ilimitados',
  },
  meter: {
    title: 'Créditos de este periodo',
    used: '{{used}} <muted>de {{limit}} usados</muted>',
    label: 'Créditos usados',
    resets:
      'Se renuevan el {{date}}; los créditos no usados no se acumulan. Cada respuesta de la IA cuesta un crédito.',
    full: 'Se usaron todos los créditos: los asistentes dejan de responder hasta el {{date}} o hasta que mejores tu plan.',
    high: 'Se ha usado el {{percent}} % de los créditos de este periodo.',
  },
  invoices: {
    title: 'Facturas',
    elsewhere: 'Las facturas te llegan por correo y se pueden descargar desde «Gestionar facturación».',
    none: 'Aún no hay facturas.',
    date: 'Fecha',
    number: 'Número',
    amount: 'Importe',
    status: 'Estado',
    download: 'Descargar',
    view: 'Ver',
  },
  operator: {
    title: 'El operador gestiona la facturación',
    text: 'El pago en línea no está configurado en este servidor, así que el plan no se puede cambiar aquí. La persona que administra Parley lo cambia con este comando:',
    copy: 'Copiar comando',
    id: 'El id de este espacio de trabajo es <code>{{ws}}</code>. Operadores: consultad docs/billing.md, "Changing a plan by hand".',
  },
  choices: {
    title: 'Planes',
    current: 'Actual',
    opening: 'Abriendo el pago…',
    upgrade: 'Mejorar a {{plan}}',
    move: 'Pasar a {{plan}}',
    moveQuestion: '¿Pasar a {{plan}} el {{date}}?',
    moveConfirm: 'Sí, pasar a {{plan}}',
    cancel: 'Cancelar {{plan}}',
    cancelQuestion:
      '¿Cancelar? {{plan}} sigue hasta el {{date}}; los datos se eliminan 30 días después de cancelar.',
    cancelConfirm: 'Sí, cancelar',
  },
  portal: {
    title: 'Métodos de pago',
    text: 'Las tarjetas, los pagos por enlace y los monederos móviles, los datos de facturación y las facturas anteriores se gestionan en Stripe.',
    opening: 'Abriendo…',
    manage: 'Gestionar facturación',
  },
} satisfies Translation<typeof en>;
