package io.memloop.bench.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.memloop.bench.sql.SqlAlignment.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The policy's alignment of questions and rewriting of queries, and the catalogue's fitness for it. */
class SqlAlignmentTest {

  private static List<String> values(SqlTemplate t, SplittableRandom rnd) {
    List<String> out = new ArrayList<>();
    for (SqlTemplate.Slot s : t.slots()) {
      out.add(s.values().get(rnd.nextInt(s.values().size())));
    }
    return out;
  }

  @Test
  void tokens_tellLiteralsFromWording() {
    assertThat(SqlAlignment.tokens("Which customers from Lyon placed more than 8 orders?"))
        .extracting(SqlAlignment.Token::kind)
        .containsExactly(Kind.WORD, Kind.WORD, Kind.WORD, Kind.ENTITY, Kind.WORD, Kind.WORD, Kind.WORD, Kind.NUMBER,
            Kind.WORD);
    assertThat(SqlAlignment.literals("List the 3 cheapest products in the Books category.", Kind.ENTITY))
        .containsExactly("Books");
  }

  @Test
  void align_sameTemplateOtherLiterals_mapsLiteralByLiteral() {
    assertThat(SqlAlignment.align(
            "Which customers from Lyon placed more than 8 orders?", "Which customers from Oslo placed more than 6 orders?"))
        .contains(Map.of("Lyon", "Oslo", "8", "6"));
  }

  @Test
  void align_nearIdenticalWordingOfOtherSemantics_alignsToo() {
    assertThat(SqlAlignment.align(
            "Which customers from Lyon never placed more than 8 orders?",
            "Which customers from Oslo placed more than 6 orders?"))
        .contains(Map.of("Lyon", "Oslo", "8", "6"));
  }

  @Test
  void align_otherKindOfQuestion_doesNotAlign() {
    assertThat(SqlAlignment.align(
            "Which employees in Sales earn more than 5000?", "Which customers from Oslo placed more than 6 orders?"))
        .isEmpty();
  }

  @Test
  void align_missingLiteral_doesNotAlign() {
    assertThat(SqlAlignment.align("Which customers placed more than 8 orders?", "Which customers from Oslo placed more than 8 orders?"))
        .isEmpty();
  }

  @Test
  void substitute_rewritesQuotedEntitiesAndBareNumbersInOnePass() {
    String sql = "SELECT x FROM t WHERE a = 'Lyon' AND b <> 'Oslo' AND c > 8 AND t.col8 = 8.5 AND d = 'Porto'";
    assertThat(SqlAlignment.substitute(sql, Map.of("Lyon", "Oslo", "Oslo", "Lyon", "8", "12")))
        .isEqualTo("SELECT x FROM t WHERE a = 'Oslo' AND b <> 'Lyon' AND c > 12 AND t.col8 = 8.5 AND d = 'Porto'");
  }

  /** Every pair of templates, with random literals: same kind ⇔ aligned. The distractors depend on it. */
  @Test
  void catalogue_questionsAlignExactlyWithinTheirKind() {
    SplittableRandom rnd = new SplittableRandom(1);
    for (SqlTemplate a : SqlTemplates.ALL) {
      for (SqlTemplate b : SqlTemplates.ALL) {
        for (int round = 0; round < 5; round++) {
          String qa = a.question(values(a, rnd));
          String qb = b.question(values(b, rnd));
          assertThat(SqlAlignment.align(qa, qb).isPresent()).as("%s vs %s", qa, qb).isEqualTo(a.kind().equals(b.kind()));
        }
      }
    }
  }

  /** A case of the same template rewrites to the gold query exactly: the SQL has no literal but its slots. */
  @Test
  void catalogue_sameTemplateCaseRewritesToTheGoldQuery() {
    SplittableRandom rnd = new SplittableRandom(2);
    Pattern literal = Pattern.compile("'([^']*)'|(?<![\\w.])([0-9]+)(?![\\w.])");
    for (SqlTemplate t : SqlTemplates.ALL) {
      Matcher m = literal.matcher(t.sql(values(t, rnd)));
      int literals = 0;
      while (m.find()) {
        literals++;
      }
      assertThat(literals).as("literals in %s", t.id()).isEqualTo(t.slots().size());
      for (int round = 0; round < 20; round++) {
        List<String> from = values(t, rnd);
        List<String> to = values(t, rnd);
        Map<String, String> mapping = SqlAlignment.align(t.question(from), t.question(to)).orElseThrow();
        assertThat(SqlAlignment.substitute(t.sql(from), mapping)).isEqualTo(t.sql(to));
      }
    }
  }
}
