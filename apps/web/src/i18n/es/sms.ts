import type en from '../en/sms.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'SMS',
  titleFor: 'SMS de {{name}}',
  intro:
    'Los clientes escriben por SMS a tu número; el asistente responde por SMS a través de tu propia cuenta del proveedor (usas tu propia cuenta: el proveedor te factura los mensajes a ti, y cada respuesta de la IA usa un crédito aquí).',
  membersOnly:
    'Solo los propietarios y administradores de este espacio de trabajo pueden ver y cambiar el canal SMS: guarda las credenciales de la cuenta del proveedor. Las conversaciones por SMS aparecen en la bandeja de entrada para todos.',
  upgrade: {
    title: 'Los SMS necesitan el plan Pro o Enterprise',
    text: 'Este espacio de trabajo tiene el plan {{plan}}, que no incluye canales. Para responder mensajes de texto con este asistente, el propietario del espacio de trabajo lo cambia a Pro: el cambio es inmediato y esta página permite entonces conectar tu cuenta y tu número del proveedor de SMS.',
    owner: 'Cambiar de plan en la página de Facturación',
    other: 'Ver los planes en la página de Facturación',
    refused:
      'Los SMS necesitan el plan Pro o Enterprise. El propietario del espacio de trabajo puede cambiarlo.',
  },
  form: {
    titleNew: 'Conectar un número de SMS',
    titleSaved: 'Cuenta del proveedor y número',
    newHint:
      'Desde la consola de tu proveedor de SMS: el SID de la cuenta y el token de autenticación (Account info), y un número de esa cuenta que pueda enviar SMS.',
    enabled: 'SMS activados',
    enabledHint:
      'Desactivado: los mensajes al número se confirman al proveedor, pero no se guardan ni se responden.',
    credentials: 'Credenciales',
    accountSid: 'SID de la cuenta',
    authToken: 'Token de autenticación',
    authTokenNew: 'Al menos 32 caracteres. Se guarda cifrado y no se vuelve a mostrar.',
    authTokenSaved:
      'Guardado (cifrado y nunca se muestra). Déjalo vacío para conservarlo o escribe uno nuevo.',
    authTokenPlaceholder: '•••••••• guardado',
    savedBadge: 'Guardado',
    phoneNumber: 'Número de teléfono',
    phoneNumberHint:
      'En formato internacional (E.164): + y el código de país, como +15550102000. Un número por asistente.',
    test: 'Probar',
    testing: 'Probando…',
    testHint:
      'Pregunta al proveedor si esta cuenta tiene este número, antes o después de guardar. No se guarda nada.',
    testHintSaved:
      'Pregunta al proveedor si esta cuenta tiene este número, antes o después de guardar (con el token guardado si el campo está vacío). No se guarda nada.',
    replies: 'Respuestas y sesiones',
    maxMessageLength: 'Respuesta más larga, en caracteres (de {{min, number}} a {{max, number}})',
    maxMessageLengthHint:
      'Las respuestas más largas se cortan al final de una palabra. 160 caracteres son un SMS estándar.',
    sessionTimeout:
      'Terminar una sesión tras estos minutos sin mensajes (de {{min, number}} a {{max, number}})',
    sessionTimeoutHint: 'Un mensaje posterior empieza una conversación nueva.',
    sessionTimeoutHintSaved:
      'Un mensaje posterior empieza una conversación nueva. Para cambiarlo hay que volver a escribir el token de autenticación.',
    contactMatching: 'Asociar los remitentes a contactos existentes por su número de teléfono',
    autoCreate: 'Crear un contacto para cada remitente desconocido',
    save: 'Guardar la configuración de SMS',
    create: 'Conectar el número',
    saving: 'Guardando…',
    saved: 'Guardado',
    unsaved: 'Cambios sin guardar',
  },
  check: {
    accountSid: 'Escribe el SID de la cuenta que aparece en la consola del proveedor.',
    accountSidForm:
      'El SID de la cuenta es AC seguido de 32 letras o dígitos (34 caracteres en total); este tiene {{count, number}}.',
    authToken: 'Escribe el token de autenticación.',
    authTokenShort: 'El token de autenticación tiene al menos 32 caracteres; este tiene {{count, number}}.',
    authTokenChars: 'El token de autenticación son caracteres imprimibles sin espacios, como máximo 256.',
    authTokenForTimeout:
      'Vuelve a escribir el token de autenticación para cambiar el tiempo de espera de la sesión: ese ajuste se guarda junto con las credenciales.',
    authTokenForTest:
      'Escribe el token de autenticación de este SID de cuenta para probar: el guardado corresponde al SID guardado.',
    phoneNumber: 'Escribe el número de teléfono que recibe los mensajes.',
    phoneNumberForm:
      'El número de teléfono debe estar en formato internacional (E.164): + y el código de país, de 7 a 15 dígitos en total, como +15550102000.',
    phoneNumberPlus:
      'El número de teléfono debe empezar por + y el código de país, como +15550102000 (E.164).',
    maxMessageLength:
      'La respuesta más larga es un número entero de caracteres de {{min, number}} a {{max, number}}.',
    sessionTimeout:
      'El tiempo de espera de la sesión es un número entero de minutos de {{min, number}} a {{max, number}} (un día).',
    taken: 'Otro asistente ya usa este número.',
    numberConnected:
      'Este número de teléfono ya está conectado a otro asistente. Desconéctalo allí primero o usa otro número.',
    reload: 'Este asistente ya tiene una configuración de SMS: recarga la página para verla.',
    invalid: 'Algunos campos no son válidos: mira los mensajes de cada campo.',
  },
  result: {
    notValid:
      'No válido. {{reason}}. Comprueba el SID de la cuenta, el token de autenticación y el número en la consola del proveedor.',
    notConfirmed: 'El proveedor no confirmó estas credenciales ni este número',
    yes: 'sí',
    no: 'no',
    capabilities: 'SMS {{sms}}, MMS {{mms}}, voz {{voice}}',
    valid:
      'Válido: la cuenta del proveedor tiene el número {{number}}. Puede recibir y enviar: {{capabilities}}.',
    noSms:
      'Las credenciales son válidas y la cuenta tiene el número {{number}}, pero el número no puede enviar SMS ({{capabilities}}). Activa los SMS para él en el proveedor o elige otro número.',
  },
  webhook: {
    title: 'URL del webhook',
    text: 'En la consola del proveedor, abre el número y pega esta dirección como webhook para <em>a message comes in</em> (llega un mensaje), con el método HTTP POST. Parley solo acepta las solicitudes que el proveedor firma con el token de autenticación de esta cuenta.',
    label: 'URL del webhook',
    copy: 'Copiar la URL del webhook',
    off: 'Los SMS están desactivados: los mensajes al número no se responden hasta que los actives.',
  },
  remove: {
    button: 'Desconectar los SMS',
    question:
      '¿Desconectar los SMS de este asistente? Las credenciales se eliminan y los mensajes al número dejan de responderse. Las conversaciones anteriores se quedan en la bandeja de entrada.',
    confirm: 'Desconectar',
  },
  sessions: {
    title: 'Sesiones',
    titleCount: 'Sesiones ({{count, number}})',
    refresh: 'Actualizar',
    refreshing: 'Actualizando…',
    empty: 'Aún no hay sesiones de SMS',
    emptyText:
      'Envía un SMS al número desde un teléfono: la conversación aparece aquí y en la bandeja de entrada.',
    list: 'Sesiones de SMS',
    session: 'Sesión con {{number}}',
    active: 'Activa',
    ended: 'Terminada',
    meta_one: '{{count, number}} mensaje · empezó el {{started}} · último mensaje el {{last}}',
    meta_other: '{{count, number}} mensajes · empezó el {{started}} · último mensaje el {{last}}',
    open: 'Abrir la conversación en la bandeja de entrada',
  },
  analytics: {
    title: 'Mensajes',
    totals: {
      messages: 'Mensajes',
      received: 'Recibidos',
      sent: 'Enviados',
      customers: 'Clientes',
      activeSessions: 'Sesiones activas',
    },
    loadingChart: 'Cargando el gráfico…',
    hint: 'Recibidos: de los clientes. Enviados: las respuestas del asistente y de los agentes. Los días son UTC, hasta hoy.',
    chart: 'Mensajes por día',
    none: 'No hubo mensajes en los últimos {{period}}.',
    summary:
      'Mensajes por día en los últimos {{period}}; el día con más fue el {{day}}, con {{count, number}}.',
  },
} satisfies Translation<typeof en>;
