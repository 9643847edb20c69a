import type en from '../en/account.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Configuración de la cuenta',
  profile: {
    title: 'Perfil',
    name: 'Nombre',
    email: 'Correo electrónico',
    emailNote: 'Inicias sesión con esta dirección. Para cambiarla, contacta con soporte.',
    save: 'Guardar perfil',
    saved: 'Perfil guardado.',
  },
  preferences: {
    title: 'Preferencias',
    theme: 'Tema',
    themes: { light: 'Claro', dark: 'Oscuro', system: 'El mismo que mi dispositivo' },
    shortcuts: 'Atajos de teclado (pulsa ? para ver la lista)',
    language: 'Idioma',
    browserLanguage: 'El idioma de mi navegador ({{language}})',
    languageNote:
      'El panel está en inglés y en español; en otros idiomas, las fechas y los números siguen el idioma y el texto queda en inglés.',
    save: 'Guardar preferencias',
    saved: 'Preferencias guardadas.',
  },
  password: {
    title: 'Contraseña',
    none: 'Inicias sesión a través de un proveedor de identidad, así que esta cuenta no tiene contraseña que cambiar.',
    current: 'Contraseña actual',
    new: 'Nueva contraseña',
    note: 'Al menos 10 caracteres. Al cambiarla se cierran tus demás sesiones.',
    change: 'Cambiar contraseña',
    changed: 'Contraseña cambiada. Se cerraron tus demás sesiones; esta sigue abierta.',
    incorrect: 'La contraseña actual no es correcta.',
    refused: 'La nueva contraseña no se acepta: {{reason}}.',
    locked:
      'Demasiados intentos con una contraseña actual incorrecta: el formulario queda bloqueado hasta 15 minutos. Vuelve a intentarlo más tarde.',
  },
  tokens: {
    title: 'Tokens de acceso personal',
    intro:
      'Un token actúa en tu nombre, con tus roles, en la API del espacio de trabajo (<code>Authorization: Bearer pat_…</code>). Úsalo para tus propios scripts; la automatización del espacio de trabajo debería usar una clave de API del espacio.',
    none: 'Aún no hay tokens. Crea uno aquí abajo cuando un script lo necesite.',
    list: 'Tokens de acceso personal',
    create: 'Crear un token',
    name: 'Nombre del token',
    namePlaceholder: 'Mi portátil',
    createButton: 'Crear token',
    copyNow: 'Copia «{{name}}» ahora: no lo volverás a ver.',
    newToken: 'Nuevo token',
    copy: 'Copiar token',
    hide: 'Listo, ocultar el token',
    used: 'Creado el {{created}} · Último uso: {{used}}',
    never: 'nunca',
    revoke: 'Revocar',
    revokeName: 'Revocar {{name}}',
    revokeQuestion: '¿Revocar {{name}}?',
    revokeConfirm: 'Revocar token',
  },
  data: {
    title: 'Tus datos',
    intro:
      'Obtén una copia de tu perfil, preferencias, espacios de trabajo y membresías en un archivo JSON. Enviamos un enlace de descarga a {{email}}; funciona durante 7 días mientras tengas la sesión iniciada en esta cuenta.',
    button: 'Enviarme mis datos por correo',
    done: 'Listo: el enlace va de camino a {{email}} y funciona hasta el {{date}}.',
  },
  delete: {
    title: 'Eliminar tu cuenta',
    warning: 'Esto no se puede deshacer. Tus sesiones, tokens y membresías desaparecen al instante.',
    warningOwner:
      'Esto no se puede deshacer. Tus sesiones, tokens y membresías desaparecen al instante, y también los espacios de trabajo de los que eres propietario, con todo su contenido:',
    transfer: 'Para conservar un espacio de trabajo, transfiere antes su propiedad a otro miembro.',
    confirm: 'Escribe DELETE para confirmar',
    button: 'Eliminar mi cuenta',
  },
} satisfies Translation<typeof en>;
