import type en from '../en/members.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Miembros',
  introManage: 'Invita a personas por correo, cambia lo que pueden hacer o quítalas.',
  introRead:
    'Las personas de este espacio de trabajo. Los propietarios y administradores invitan a personas y cambian roles.',
  people: 'Personas',
  peopleCount: 'Personas ({{count, number}})',
  list: 'Miembros',
  nobody: 'No hay nadie',
  nobodyText: 'Recarga la página: un espacio de trabajo siempre tiene a su propietario.',
  you: ' (tú)',
  joined: 'Se unió el {{date}}',
  roleOf: 'Rol de {{name}}',
  nowRole: '{{name}} ahora es {{role}}.',
  remove: 'Quitar',
  removeName: 'Quitar a {{name}}',
  removeQuestion: '¿Quitar a {{name}} del espacio de trabajo?',
  roles: {
    admin: { label: 'Administrador', what: 'gestiona asistentes, miembros, claves de API y webhooks' },
    member: { label: 'Miembro', what: 'usa los asistentes y chatea' },
    guest: { label: 'Invitado', what: 've los asistentes, no puede chatear' },
  },
  roleOption: '{{label}}: {{what}}',
  leave: {
    title: 'Salir de este espacio de trabajo',
    text: 'Perderás el acceso a {{name}} y a sus asistentes. Un propietario o administrador puede volver a invitarte.',
    button: 'Salir del espacio de trabajo',
    question: '¿Salir de {{name}}?',
    confirm: 'Salir',
  },
  confirm: { cancel: 'Cancelar' },
  invite: {
    title: 'Invitar a alguien',
    email: 'Correo electrónico',
    role: 'Rol',
    send: 'Enviar invitación',
    alreadyMember: '{{email}} ya es miembro de este espacio de trabajo.',
    pending:
      '{{email}} ya tiene una invitación pendiente. Para enviar un enlace nuevo, revócala en «Invitaciones pendientes» y vuelve a invitar.',
    sent: '<strong>Invitación enviada a {{email}}</strong> como {{role}}. Le enviamos este enlace por correo; también puedes compartirlo tú. Solo se muestra esta vez y funciona hasta el {{date}}, únicamente para esa dirección de correo.',
    link: 'Enlace de invitación',
    copy: 'Copiar enlace',
  },
  pending: {
    title: 'Invitaciones pendientes',
    none: 'No hay invitaciones pendientes',
    noneText: 'Invita a alguien con el formulario de arriba; su invitación espera aquí hasta que se una.',
    expires: 'Caduca el {{date}}',
    revokeOf: 'Revocar la invitación de {{email}}',
    revoke: 'Revocar',
  },
} satisfies Translation<typeof en>;
