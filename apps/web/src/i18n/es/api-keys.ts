import type en from '../en/api-keys.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Claves de API',
  notAllowed:
    'Solo los propietarios y administradores de este espacio de trabajo gestionan sus claves de API. Pide una clave a alguno de ellos.',
  intro:
    'Las claves permiten que herramientas de automatización (Zapier, Make, n8n, tus scripts) usen este espacio de trabajo a través de <code>/api/v1</code> con <code>Authorization: Bearer wsk_live_…</code>. Cualquier clave puede leer; los permisos conceden escritura.',
  keys: 'Claves',
  keysCount: 'Claves ({{count, number}})',
  none: 'Aún no hay claves de API',
  noneText:
    'Crea una clave con el formulario y pégala en la herramienta que deba actuar en nombre de este espacio de trabajo.',
  list: 'Claves de API',
  scopesOf: 'Permisos de {{name}}',
  used: 'Creada el {{created}} · Último uso: {{used}}',
  never: 'nunca',
  revoke: 'Revocar',
  revokeName: 'Revocar {{name}}',
  revokeQuestion: '¿Revocar {{name}}? Todo lo que la use dejará de funcionar al instante.',
  revokeConfirm: 'Revocar clave',
  planRefused:
    'Los permisos de escritura requieren el plan Pro o Enterprise, que este espacio de trabajo no tiene. Mejora el plan o crea una clave solo con events:read.',
  created: 'Clave «{{name}}» creada',
  copyNow:
    '<strong>Cópiala ahora: no la volverás a ver.</strong> Parley solo guarda una huella de ella. Si la pierdes, crea una clave nueva y revoca esta.',
  key: 'Clave de API',
  copy: 'Copiar clave',
  hide: 'Listo, ocultar la clave',
  create: 'Crear una clave',
  name: 'Nombre de la clave',
  scopes: 'Permisos',
  scope: {
    contactsWrite: 'crear, actualizar y eliminar contactos del CRM',
    ticketsWrite: 'crear y actualizar tickets',
    chatWrite: 'enviar mensajes a las conversaciones',
    eventsRead: 'suscribirse a los eventos del espacio de trabajo (webhooks)',
  },
  writePlan: ' (plan Pro o Enterprise)',
  freePlan: 'Este espacio de trabajo está en el plan Free: solo está disponible events:read.',
  chooseScope: 'Elige al menos un permiso.',
  createButton: 'Crear clave',
} satisfies Translation<typeof en>;
