import type en from '../en/sso.ts';
import type { Translation } from '../types.ts';

export default {
  title: 'Inicio de sesión único',
  ownerOnly: 'Solo el propietario de este espacio de trabajo configura el inicio de sesión único.',
  enterprise: 'El inicio de sesión único (OpenID Connect y SAML) forma parte del plan Enterprise.',
  intro:
    'Las personas cuyo correo pertenece a un dominio verificado inician sesión a través de tu proveedor de identidad y se unen a este espacio de trabajo con el rol predeterminado de la conexión.',
  connections: 'Conexiones',
  empty: 'Aún no hay conexiones',
  emptyText: 'Añade tu proveedor de identidad con el formulario.',
  list: 'Conexiones de SSO',
  card: {
    label: 'Conexión {{name}}',
    defaultRole: 'rol predeterminado: {{role}}',
    issuer: 'Emisor',
    redirectUri: 'URI de redirección',
    idp: 'IdP',
    entityId: 'ID de entidad',
    acsUrl: 'URL de ACS',
    domains: 'Dominios de {{name}}',
    verified: 'verificado',
    verify: 'Verificar {{domain}}',
    requireSso: 'Exigir SSO a los miembros de estos dominios (tú, como propietario, conservas tu contraseña)',
    test: 'Probar el inicio de sesión',
    delete: 'Eliminar {{name}}',
    testWorked: 'La prueba de inicio de sesión funcionó: {{email}}',
    testFailed: 'La prueba de inicio de sesión no se completó.',
  },
  form: {
    title: 'Nueva conexión',
    protocol: 'Protocolo',
    name: 'Nombre',
    issuer: 'Emisor',
    clientId: 'ID de cliente',
    clientSecret: 'Secreto de cliente',
    metadataUrl: 'URL de los metadatos',
    metadataXml: 'o XML de los metadatos',
    domains: 'Dominios de correo (separados por comas)',
    defaultRole: 'Rol predeterminado',
    roles: { member: 'Miembro', admin: 'Administrador', guest: 'Invitado' },
    add: 'Añadir conexión',
  },
  testResult: {
    title: 'Prueba del inicio de sesión único',
    ok: 'El proveedor de identidad inició la sesión de {{email}}. Puedes cerrar esta ventana.',
    failed: 'La prueba de inicio de sesión no se completó.',
  },
  signIn: {
    continue: 'Continuar con SSO',
    form: 'Inicio de sesión único',
    email: 'Correo del trabajo',
    none: 'No hay inicio de sesión único configurado para el dominio de este correo. Inicia sesión con tu contraseña.',
    failed:
      'El inicio de sesión único no se completó. Inténtalo de nuevo o pide al propietario de tu espacio de trabajo que revise la conexión.',
    reasons: {
      email_invalid:
        'Tu proveedor de identidad envió una dirección de correo que no es válida, así que no se inició ninguna sesión. Pide al propietario de tu espacio de trabajo que revise el correo que envía tu proveedor.',
      email_domain:
        'Tu proveedor de identidad envió una dirección de correo fuera de los dominios verificados para el inicio de sesión único de este espacio de trabajo, así que no se inició ninguna sesión. Inicia sesión con una dirección del dominio verificado de tu empresa o pregunta al propietario de tu espacio de trabajo.',
    },
  },
} satisfies Translation<typeof en>;
