import type en from '../en/invitations.ts';
import type { Translation } from '../types.ts';

export default {
  invitedTitle: 'Te han invitado a un espacio de trabajo de Parley',
  invitedText:
    'Inicia sesión o crea una cuenta con el correo invitado para unirte. La invitación se envió a esa dirección; después volverás a esta página.',
  signInToJoin: 'Iniciar sesión para unirte',
  createAccount: 'Crear una cuenta',
  joinTitle: 'Unirse a un espacio de trabajo',
  signedInAs:
    'Te invitaron a un espacio de trabajo en Parley. Has iniciado sesión como <strong>{{email}}</strong>.',
  join: 'Unirme al espacio de trabajo',
  expired:
    'Este enlace de invitación ya no funciona: caducó (los enlaces duran 7 días), se revocó o ya se usó. Pide a quien te invitó que te envíe uno nuevo.',
  otherAddress:
    'Esta invitación se envió a otra dirección de correo, no a {{email}}. Cierra sesión y luego inicia sesión o crea una cuenta con la dirección a la que llegó el correo de invitación.',
  signOut: 'Cerrar sesión y usar otra cuenta',
  already: 'Ya eres miembro de este espacio de trabajo. <a>Ir a tus espacios de trabajo</a>.',
} satisfies Translation<typeof en>;
