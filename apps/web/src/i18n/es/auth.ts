import type en from '../en/auth.ts';
import type { Translation } from '../types.ts';

export default {
  signinTitle: 'Inicia sesión en Parley',
  signupTitle: 'Crea tu cuenta de Parley',
  invitationNote:
    'Usa la dirección de correo a la que se envió tu invitación. Después volverás a la invitación.',
  name: 'Nombre',
  email: 'Correo electrónico',
  password: 'Contraseña',
  passwordNote: 'Al menos 10 caracteres.',
  signin: 'Iniciar sesión',
  signup: 'Crear cuenta',
  haveAccount: '¿Ya tienes una cuenta? <a>Inicia sesión</a>',
  newToParley: '¿Eres nuevo en Parley? <a>Crea una cuenta</a>',
} satisfies Translation<typeof en>;
