package io.memloop.bench.ops;

import java.util.List;

/**
 * A kind of ops task from which families of look-alike tasks are generated.
 *
 * @param key short name used in task ids
 * @param variants the twin phrasings, each with one {@code {x}} slot for the subject; twins of one
 *     family differ only in the variant, and each has its own correct procedure
 * @param subjects what fills the slot (service, database, job...); one subject per family
 * @param procedures the candidate answers the policy chooses from; more than {@code variants} so
 *     every twin of a family can have a different correct procedure
 */
record OpsTemplate(String key, List<String> variants, List<String> subjects, List<String> procedures) {
  static final String SLOT = "{x}";

  OpsTemplate {
    variants = List.copyOf(variants);
    subjects = List.copyOf(subjects);
    procedures = List.copyOf(procedures);
    if (variants.size() < 2) {
      throw new IllegalArgumentException(key + ": needs at least 2 variants, got " + variants.size());
    }
    for (String v : variants) {
      if (!v.contains(SLOT)) {
        throw new IllegalArgumentException(key + ": variant without " + SLOT + ": " + v);
      }
    }
    // The policy finds the procedure as the first quoted span of an experience, which starts with
    // the intent: a quote in the intent would hide it.
    for (String text : concat(variants, subjects, procedures)) {
      if (text.contains(CopyFirstPolicy.QUOTE)) {
        throw new IllegalArgumentException(
            key + ": contains the quote character " + CopyFirstPolicy.QUOTE + ": " + text);
      }
    }
    if (subjects.isEmpty()) {
      throw new IllegalArgumentException(key + ": needs at least one subject");
    }
    if (procedures.size() <= variants.size() || procedures.stream().distinct().count() != procedures.size()) {
      throw new IllegalArgumentException(
          key + ": needs more distinct procedures than variants (variants=" + variants.size()
              + ", procedures=" + procedures + ")");
    }
  }

  private static List<String> concat(List<String> a, List<String> b, List<String> c) {
    return java.util.stream.Stream.of(a, b, c).flatMap(List::stream).toList();
  }

  String intent(int variant, String subject) {
    return variants.get(variant).replace(SLOT, subject);
  }
}
