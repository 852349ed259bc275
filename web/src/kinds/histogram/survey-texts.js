// The histogram kind's words on the survey page (its ranges' words are in range-texts.js).
import { texts } from '../../shared/i18n.js';

export const t = texts({
  en: {
    noEpsilon: 'each range is marked yes or no at random, more often for your own range; no ε bounds what that reveals.',
    privacyWords: (p, q) => `the range of values is split into smaller ranges, each sent as a yes or a no at random: your own range is a yes ${p} of the time, each other range ${q} of the time.`,
    labelOne: 'Range your report marks',
    labelMany: 'Ranges your report marks',
    joined: (marked, shown) => `Marked ranges that touch are shown joined: ${marked} of the ${shown} ranges are marked.`,
    explanation: (whole, ranges, p, q) => `The range ${whole} is split into ${ranges} smaller ranges, and your report marks each one yes or no at random: ` +
      `your own range is marked ${p} of the time; each other range ${q} of the time. So a marked range may not be yours, and yours may be unmarked.`,
    explanationLevels: (whole, ranges, levels, p, q) => `The range ${whole} is split into ${ranges} smaller ranges (one of ${levels} levels of detail, picked at random for this report), ` +
      `and your report marks each one yes or no at random: your own range is marked ${p} of the time; each other range ${q} of the time. ` +
      'So a marked range may not be yours, and yours may be unmarked.',
    technicalDetails: 'Technical details',
    detailsMechanism: (label, epsilon) => `Mechanism: ${label}, ε = ${epsilon}.`,
    detailsChances: (p, q) => `p = ${p}: the chance your own range's bit is 1; q = ${q}: the chance each other range's bit is 1.`,
    detailsFlat: (bits, ones) => `The report is ${bits} bits, one per range in order from the lowest; ${ones} of them ${ones === 1 ? 'is' : 'are'} 1.`,
    detailsTree: (level, height, fanout, bits, ones) => `The report is level ${level} of ${height} of a tree with fan-out ${fanout}: ` +
      `${bits} bits, one per range of that level in order from the lowest; ${ones} of them ${ones === 1 ? 'is' : 'are'} 1.`,
    detailsPadding: (padding) => `The last ${padding} stand for no values: padding that completes the tree.`,
  },
  fr: {
    noEpsilon: 'chaque tranche est marquée oui ou non au hasard, plus souvent pour votre propre tranche ; aucun ε ne borne ce que cela révèle.',
    privacyWords: (p, q) => `la plage des valeurs est découpée en tranches, chacune envoyée comme un oui ou un non au hasard : votre propre tranche est un oui ${p} du temps, chacune des autres ${q} du temps.`,
    labelOne: 'Tranche marquée par votre rapport',
    labelMany: 'Tranches marquées par votre rapport',
    joined: (marked, shown) => `Les tranches marquées qui se touchent sont réunies : ${marked} des ${shown} tranches sont marquées.`,
    explanation: (whole, ranges, p, q) => `La plage de ${whole} est découpée en ${ranges} tranches plus petites, et votre rapport marque chacune oui ou non au hasard : ` +
      `votre propre tranche est marquée ${p} du temps ; chacune des autres ${q} du temps. Une tranche marquée n’est donc pas forcément la vôtre, et la vôtre peut ne pas être marquée.`,
    explanationLevels: (whole, ranges, levels, p, q) => `La plage de ${whole} est découpée en ${ranges} tranches plus petites (un niveau de détail parmi ${levels}, tiré au hasard pour ce rapport), ` +
      `et votre rapport marque chacune oui ou non au hasard : votre propre tranche est marquée ${p} du temps ; chacune des autres ${q} du temps. ` +
      'Une tranche marquée n’est donc pas forcément la vôtre, et la vôtre peut ne pas être marquée.',
    technicalDetails: 'Détails techniques',
    detailsMechanism: (label, epsilon) => `Mécanisme : ${label}, ε = ${epsilon}.`,
    detailsChances: (p, q) => `p = ${p} : la probabilité que le bit de votre propre tranche vaille 1 ; q = ${q} : la probabilité que le bit de chaque autre tranche vaille 1.`,
    detailsFlat: (bits, ones) => `Le rapport compte ${bits} bits, un par tranche, de la plus basse à la plus haute ; ${ones === 0 ? 'aucun ne vaut 1' : `${ones} d’entre eux ${ones > 1 ? 'valent' : 'vaut'} 1`}.`,
    detailsTree: (level, height, fanout, bits, ones) => `Le rapport est le niveau ${level} sur ${height} d’un arbre dont chaque nœud a ${fanout} enfants : ` +
      `${bits} bits, un par tranche de ce niveau, de la plus basse à la plus haute ; ${ones === 0 ? 'aucun ne vaut 1' : `${ones} d’entre eux ${ones > 1 ? 'valent' : 'vaut'} 1`}.`,
    detailsPadding: (padding) => `Les ${padding} derniers ne représentent aucune valeur : ils ne servent qu’à compléter l’arbre.`,
  },
});
