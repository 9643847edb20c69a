import type en from '../en/widget.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Widget del sitio web',
  titleOf: 'Widget del sitio web de {{name}}',
  managersOnly:
    'Solo los propietarios y administradores de este espacio de trabajo pueden cambiar el widget del sitio web u obtener su código para insertarlo.',
  saving: 'Guardando…',
  saved: 'Guardado',
  unsavedChange: 'Cambio sin guardar',
  unsavedChanges: 'Cambios sin guardar',
  form: {
    title: 'Configuración',
    enabled: 'Widget activado',
    look: 'Aspecto',
    colour: 'Color',
    colourHex: 'Color (hex)',
    corner: 'Esquina',
    bottomRight: 'Abajo a la derecha',
    bottomLeft: 'Abajo a la izquierda',
    welcome: 'Mensaje de bienvenida',
    welcomePlaceholder: '¡Hola! ¿En qué puedo ayudarte?',
    welcomeHint: 'Vacío: se usa el mensaje de bienvenida del propio asistente.',
    welcomeHintNone:
      'Vacío: se usa el mensaje de bienvenida del propio asistente (no tiene ninguno, así que el chat se abre vacío).',
    where: 'Dónde puede aparecer',
    domains: 'Dominios permitidos',
    domainsHint:
      'Un sitio por línea: su nombre de host (shop.example.com) o su dirección (https://shop.example.com:8080 se queda en shop.example.com: el esquema y el puerto no importan). *.example.com permite sus subdominios y * permite cualquier sitio. Una lista vacía no permite ningún sitio.',
    domainsNotSaved: 'No se guardó: revisa los dominios permitidos de arriba.',
    leadForm: 'Formulario de contacto',
    askDetails: 'Pedir sus datos a los visitantes',
    fields: 'Campos',
    fieldsHint:
      'Claves separadas por comas, hasta 20: name, email, phone o las tuyas (una letra y después letras, cifras o _), como company.',
    required: 'Obligatorios',
    fieldNames: { name: 'Nombre', email: 'Correo electrónico', phone: 'Teléfono' },
    sessions: 'Sesiones y límites',
    timeout: 'Terminar una sesión tras estos minutos de inactividad (de {{min, number}} a {{max, number}})',
    quotaUnknown: 'Los visitantes pueden enviar cada día un número de mensajes que depende del plan.',
    quotaUnlimited:
      'Con tu plan, los visitantes pueden enviar por el widget todos los mensajes que quieran al día.',
    quota_one:
      'Con tu plan, los visitantes pueden enviar {{count, number}} mensaje al día por el widget a este asistente (día UTC), y cada respuesta consume créditos.',
    quota_other:
      'Con tu plan, los visitantes pueden enviar {{count, number}} mensajes al día por el widget a este asistente (día UTC), y cada respuesta consume créditos.',
    save: 'Guardar la configuración del widget',
  },
  preview: {
    caption: 'Vista previa en vivo',
    captionHint: 'como la ven los visitantes; los cambios se ven aquí antes de guardar',
    site: 'Tu sitio',
    off: 'El widget está desactivado: las páginas no muestran nada hasta que marques «Widget activado» y guardes.',
  },
  snippet: {
    title: 'Insértalo en tu sitio',
    text: 'Pega esta etiqueta en las páginas de tu sitio, antes de <code>{{tag}}</code>. El widget solo se muestra mientras está activado y solo en los dominios permitidos.',
    copy: 'Copiar el código',
    notEnabled: 'El widget aún no está activado: las páginas con esta etiqueta no muestran nada.',
    noDomain:
      'Aún no se permite ningún dominio: añade arriba el nombre de host de tu sitio, o ninguna página podrá mostrar el widget.',
  },
  languages: {
    title: 'Idiomas',
    intro:
      'El widget habla el idioma del visitante cuando es uno de los {{n, number}} admitidos (sigue el navegador del visitante) y, si no, el idioma predeterminado del espacio de trabajo. Los idiomas que se escriben de derecha a izquierda se muestran en espejo.',
    defaultLanguage: 'Idioma predeterminado del espacio de trabajo',
    saveDefault: 'Guardar el idioma predeterminado',
    ownTitle: 'Tus propios textos',
    ownHint:
      'Sustituye cualquier texto del widget en cualquier idioma; un campo vacío conserva el texto integrado que se muestra en él. Las palabras entre llaves, como {name}, las rellena el widget.',
    language: 'Idioma',
    changed_one: '{{language}} – {{count, number}} cambiado',
    changed_other: '{{language}} – {{count, number}} cambiados',
    loading: 'Cargando los textos integrados…',
    notSaved: 'No se guardó: revisa los textos marcados arriba.',
    save: 'Guardar los textos',
  },
} satisfies Translation<typeof en>;
