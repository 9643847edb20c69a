/** Types for the two text-analysis packages that ship none (analysis.ts). */
declare module 'snowball-stemmers' {
  const snowball: {
    newStemmer(algorithm: string): { stem(word: string): string };
    algorithms(): string[];
  };
  export default snowball;
}

declare module 'stopword' {
  /** Stop-word lists by ISO 639-3 code (the ones analysis.ts uses). */
  export const ara: string[];
  export const dan: string[];
  export const deu: string[];
  export const eng: string[];
  export const fin: string[];
  export const fra: string[];
  export const ita: string[];
  export const jpn: string[];
  export const kor: string[];
  export const nld: string[];
  export const pol: string[];
  export const por: string[];
  export const rus: string[];
  export const spa: string[];
  export const swe: string[];
  export const tur: string[];
  export const zho: string[];
}
