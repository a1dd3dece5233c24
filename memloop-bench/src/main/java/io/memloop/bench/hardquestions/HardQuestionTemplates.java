package io.memloop.bench.hardquestions;

import io.memloop.bench.Seeds;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The catalogue of {@link HardQuestionTemplate}s: computed questions from several domains (primes,
 * modular arithmetic, odd units, calendars, counting, bases) and invented trivia whose facts are fixed
 * by the environment's seed, so no model could know them in advance (HLE-like: answerable only by
 * remembering a verified answer). Every phrasing renders to at least
 * {@link HardQuestionPolicy#MIN_WORDS} distinct words, so a one-word change keeps the overlap the
 * policy reads as "the same question".
 */
final class HardQuestionTemplates {
  private HardQuestionTemplates() {}

  private static final long EPOCH_1900 = LocalDate.of(1900, 1, 1).toEpochDay();
  private static final long EPOCH_2030 = LocalDate.of(2030, 12, 31).toEpochDay();

  /** Length of each odd unit in metres. */
  private static final Map<String, Double> UNITS =
      Map.ofEntries(
          Map.entry("furlongs", 201.168), Map.entry("fathoms", 1.8288), Map.entry("chains", 20.1168),
          Map.entry("links", 0.201168), Map.entry("rods", 5.0292), Map.entry("leagues", 4828.032),
          Map.entry("cubits", 0.4572), Map.entry("hands", 0.1016), Map.entry("spans", 0.2286),
          Map.entry("cables", 185.2), Map.entry("ells", 1.143), Map.entry("barleycorns", 0.0254 / 3));
  private static final List<String> UNIT_NAMES = UNITS.keySet().stream().sorted().toList();

  private static final List<String> WORDS =
      List.of("BANANA", "MISSISSIPPI", "COMMITTEE", "BOOKKEEPER", "TENNESSEE", "STATISTICS", "BALLOON",
          "PEPPER", "ASSESSMENT", "COFFEE", "SUCCESS", "CALCULUS", "PARALLEL", "ABRACADABRA", "REFERENCE",
          "MAMMAL", "TATTOO", "CINCINNATI", "HULLABALOO", "KEEPSAKE");

  private static final List<String> REALMS =
      List.of("Varnholm", "Quessary", "Ostrelund", "Tamberwick", "Illyrod", "Fenmarrow", "Zanthe", "Korrowin",
          "Lysandel", "Brackmoor", "Emberlay", "Sorvik");
  private static final List<String> TOWNS =
      List.of("Pellim", "Dunmarch", "Corvale", "Hesketh", "Orlo", "Yarrowby", "Quillan", "Saffir", "Tessaly",
          "Murkwell", "Brisk", "Ellendun", "Gorran", "Vey");
  private static final List<String> RIVERS =
      List.of("Sable", "Ondine", "Varr", "Isk", "Thessel", "Morrow", "Calder", "Ysolde", "Brenn", "Quay",
          "Lethe", "Amber");
  private static final List<String> SWORDS =
      List.of("Nightwhisper", "Emberfang", "Duskmourn", "Frostbite", "Sunsplitter", "Grimtooth", "Starhollow",
          "Ashbringer", "Veilrender", "Thornbane");
  private static final List<String> SMITHS =
      List.of("Orrin", "Maelis", "Tobias", "Wrenna", "Gault", "Ysmay", "Corbin", "Hadria", "Feodor", "Ilse",
          "Pell", "Ravena");
  private static final List<String> HOUSES =
      List.of("Merrow", "Talgarth", "Vessim", "Orlane", "Dunmere", "Caskett", "Hollin", "Brevard", "Quorra",
          "Stavely");
  private static final List<String> COLOURS =
      List.of("vermilion", "teal", "ochre", "mauve", "saffron", "indigo", "umber", "cerulean", "jade", "crimson",
          "ivory", "slate");

  static final List<HardQuestionTemplate> ALL =
      List.of(
          new HardQuestionTemplate(
              "prime-after",
              List.of(
                  "What is the {0} prime number greater than {1}?",
                  "Counting upward from {1}, which number is the {0} prime you meet?",
                  "Name the {0} smallest prime that exceeds {1}, counting in increasing order."),
              List.of(r -> ordinal(2 + r.nextInt(29)), r -> Integer.toString(100 + r.nextInt(19_900))),
              (v, w) -> Optional.of(Long.toString(primeAfter(Long.parseLong(v.get(1)), ordinalValue(v.get(0)))))),
          new HardQuestionTemplate(
              "mod-power",
              List.of(
                  "What is the remainder when {0} raised to the power {1} is divided by {2}?",
                  "A counter starts at one and is multiplied by {0} on every tick; what does it read modulo {2} "
                      + "after {1} ticks?",
                  "Give the least non-negative residue of {0} to the exponent {1}, taken modulo {2}."),
              List.of(r -> Integer.toString(2 + r.nextInt(98)), r -> Integer.toString(10 + r.nextInt(990)),
                  r -> Integer.toString(7 + r.nextInt(193))),
              (v, w) -> {
                BigInteger m = new BigInteger(v.get(2));
                return Optional.of(new BigInteger(v.get(0)).modPow(new BigInteger(v.get(1)), m).toString());
              }),
          new HardQuestionTemplate(
              "odd-units",
              List.of(
                  "How many {2} are there in {0} {1}? Round to two decimal places.",
                  "A surveyor measured {0} {1}. Express that length in {2}, rounded to two decimals.",
                  "Convert a distance of {0} {1} into {2}, giving the result to two decimal places."),
              List.of(r -> Integer.toString(2 + r.nextInt(998)), r -> UNIT_NAMES.get(r.nextInt(UNIT_NAMES.size())),
                  r -> UNIT_NAMES.get(r.nextInt(UNIT_NAMES.size()))),
              (v, w) -> {
                if (v.get(1).equals(v.get(2))) {
                  return Optional.empty();
                }
                double x = Double.parseDouble(v.get(0)) * UNITS.get(v.get(1)) / UNITS.get(v.get(2));
                return x < 0.05 || x > 1e7 ? Optional.empty() : Optional.of(String.format(Locale.ROOT, "%.2f", x));
              }),
          new HardQuestionTemplate(
              "date-after",
              List.of(
                  "What calendar date falls {0} days after {1}? Answer as YYYY-MM-DD.",
                  "Starting on {1}, count forward {0} days. Which date do you land on, in YYYY-MM-DD form?",
                  "A ship left port on {1} and returned exactly {0} days later; on what date did it return?"),
              List.of(r -> Integer.toString(10 + r.nextInt(9_990)), HardQuestionTemplates::date),
              (v, w) -> Optional.of(LocalDate.parse(v.get(1)).plusDays(Long.parseLong(v.get(0))).toString())),
          new HardQuestionTemplate(
              "days-between",
              List.of(
                  "How many days are there from {0} up to {1}, counting the end date but not the start?",
                  "Count the number of days that elapsed between {0} and {1}, as a whole number."),
              List.of(HardQuestionTemplates::date, HardQuestionTemplates::date),
              (v, w) -> {
                long d = Math.abs(ChronoUnit.DAYS.between(LocalDate.parse(v.get(0)), LocalDate.parse(v.get(1))));
                return d < 2 ? Optional.empty() : Optional.of(Long.toString(d));
              }),
          new HardQuestionTemplate(
              "committee",
              List.of(
                  "In how many ways can a committee of {0} be chosen from {1} people?",
                  "How many distinct subsets with exactly {0} elements does a set of {1} elements have?"),
              List.of(r -> Integer.toString(2 + r.nextInt(8)), r -> Integer.toString(10 + r.nextInt(51))),
              (v, w) -> Optional.of(binomial(Integer.parseInt(v.get(1)), Integer.parseInt(v.get(0))).toString())),
          new HardQuestionTemplate(
              "anagrams",
              List.of(
                  "How many distinct arrangements are there of the letters in the word {0}?",
                  "In how many different orders can all the letters of {0} be written, counting repeats once?"),
              List.of(r -> WORDS.get(r.nextInt(WORDS.size()))),
              (v, w) -> Optional.of(arrangements(v.get(0)).toString())),
          new HardQuestionTemplate(
              "fibonacci-mod",
              List.of(
                  "What is the {0} Fibonacci number modulo {1}, with F(1) = F(2) = 1?",
                  "Take the Fibonacci sequence starting 1, 1; what is the remainder of its {0} term divided by {1}?"),
              List.of(r -> ordinal(20 + r.nextInt(481)), r -> Integer.toString(7 + r.nextInt(993))),
              (v, w) -> Optional.of(Long.toString(fibonacciMod(ordinalValue(v.get(0)), Long.parseLong(v.get(1)))))),
          new HardQuestionTemplate(
              "base",
              List.of(
                  "Write the decimal number {0} in base {1}, using digits only.",
                  "What is {0}, a number written in base ten, when expressed in base {1}?"),
              List.of(r -> Integer.toString(100 + r.nextInt(99_900)), r -> Integer.toString(3 + r.nextInt(7))),
              (v, w) -> Optional.of(Long.toString(Long.parseLong(v.get(0)), Integer.parseInt(v.get(1))))),
          new HardQuestionTemplate(
              "digit-sum",
              List.of(
                  "What is the sum of the digits of {0} multiplied by {1}?",
                  "Multiply {0} by {1} and add up the digits of the result. What total do you get?"),
              List.of(r -> Integer.toString(1000 + r.nextInt(99_000)), r -> Integer.toString(100 + r.nextInt(9_900))),
              (v, w) -> Optional.of(Integer.toString(digitSum(Long.parseLong(v.get(0)) * Long.parseLong(v.get(1)))))),
          new HardQuestionTemplate(
              "river",
              List.of(
                  "In the invented realm of {0}, which river flows past the town of {1}?",
                  "Which river runs by {1}, a town in the made-up land of {0}?"),
              List.of(pick(REALMS), pick(TOWNS)),
              (v, w) -> Optional.of(fact(w, "river", v, RIVERS))),
          new HardQuestionTemplate(
              "sword",
              List.of(
                  "In the chronicle of {0}, who forged the sword called {1}?",
                  "According to the invented chronicle of {0}, which smith made the blade {1}?"),
              List.of(pick(REALMS), pick(SWORDS)),
              (v, w) -> Optional.of(fact(w, "smith", v, SMITHS))),
          new HardQuestionTemplate(
              "banner",
              List.of(
                  "What colour is the banner of House {0} in the fictional {1} cycle?",
                  "In the made-up {1} cycle of stories, which colour does House {0} fly on its banner?"),
              List.of(pick(HOUSES), pick(REALMS)),
              (v, w) -> Optional.of(fact(w, "banner", v, COLOURS))));

  private static HardQuestionTemplate.Slot pick(List<String> values) {
    return r -> values.get(r.nextInt(values.size()));
  }

  /** An invented fact: fixed by the world seed and the question's slots, unknowable otherwise. */
  private static String fact(long worldSeed, String relation, List<String> values, List<String> answers) {
    long h = Seeds.derive(worldSeed, relation + "|" + String.join("|", values));
    return answers.get((int) Math.floorMod(h, (long) answers.size()));
  }

  private static String date(java.util.random.RandomGenerator rnd) {
    return LocalDate.ofEpochDay(EPOCH_1900 + rnd.nextLong(EPOCH_2030 - EPOCH_1900 + 1)).toString();
  }

  static String ordinal(int n) {
    int mod100 = n % 100;
    String suffix =
        mod100 >= 11 && mod100 <= 13
            ? "th"
            : switch (n % 10) {
              case 1 -> "st";
              case 2 -> "nd";
              case 3 -> "rd";
              default -> "th";
            };
    return n + suffix;
  }

  static int ordinalValue(String ordinal) {
    return Integer.parseInt(ordinal.substring(0, ordinal.length() - 2));
  }

  /** The {@code k}-th prime strictly greater than {@code n} (k ≥ 1). */
  static long primeAfter(long n, int k) {
    long p = n;
    for (int found = 0; found < k; ) {
      p++;
      if (isPrime(p)) {
        found++;
      }
    }
    return p;
  }

  private static boolean isPrime(long p) {
    if (p < 2) {
      return false;
    }
    for (long d = 2; d * d <= p; d++) {
      if (p % d == 0) {
        return false;
      }
    }
    return true;
  }

  static BigInteger binomial(int n, int k) {
    BigInteger r = BigInteger.ONE;
    for (int i = 0; i < k; i++) {
      r = r.multiply(BigInteger.valueOf(n - i)).divide(BigInteger.valueOf(i + 1));
    }
    return r;
  }

  /** Distinct permutations of the letters of {@code word}: n! / Π count(letter)!. */
  static BigInteger arrangements(String word) {
    int[] counts = new int[26];
    word.chars().forEach(c -> counts[c - 'A']++);
    BigInteger r = factorial(word.length());
    for (int c : counts) {
      r = r.divide(factorial(c));
    }
    return r;
  }

  private static BigInteger factorial(int n) {
    BigInteger r = BigInteger.ONE;
    for (int i = 2; i <= n; i++) {
      r = r.multiply(BigInteger.valueOf(i));
    }
    return r;
  }

  /** F(n) mod m with F(1) = F(2) = 1. */
  static long fibonacciMod(int n, long m) {
    long a = 0;
    long b = 1;
    for (int i = 1; i < n; i++) {
      long c = (a + b) % m;
      a = b;
      b = c;
    }
    return b % m;
  }

  private static int digitSum(long x) {
    int s = 0;
    for (long y = Math.abs(x); y > 0; y /= 10) {
      s += (int) (y % 10);
    }
    return s;
  }
}
