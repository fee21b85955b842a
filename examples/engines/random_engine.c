/* A complete Ulm engine in C (docs/engines.md): it answers the host's hello,
 * reads the seed from the game message and, for each decision, picks one of the
 * legal ids at random. It parses only what it needs: the number after "seed":
 * in the game message and the ids of the "legal" list (the last member of a
 * decide message). Build and run:
 *
 *     gcc -O2 -o random_engine examples/engines/random_engine.c
 *     ulm tournament --engine c=./random_engine --bots engine:c level:2 --games 4
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static uint64_t rng_state = 88172645463325252ULL;

static uint64_t next_random(void) {       /* xorshift64 */
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int is_type(const char *line, const char *type) {
    char pattern[64];
    snprintf(pattern, sizeof pattern, "\"type\":\"%s\"", type);
    return strstr(line, pattern) != NULL;
}

int main(void) {
    char *line = NULL;
    size_t size = 0;
    long ids[512];
    while (getline(&line, &size, stdin) > 0) {
        if (is_type(line, "hello")) {
            printf("{\"type\":\"hello\",\"name\":\"random engine (C)\",\"protocol\":1}\n");
        } else if (is_type(line, "game")) {
            const char *seed = strstr(line, "\"seed\":");
            if (seed) rng_state = strtoull(seed + 7, NULL, 10) | 1;
        } else if (is_type(line, "decide")) {
            const char *p = strstr(line, "\"legal\":");
            int n = 0;
            while (p && (p = strstr(p, "\"id\":")) != NULL && n < 512) {
                p += 5;
                ids[n++] = strtol(p, NULL, 10);
            }
            if (n == 0) return 1;
            printf("{\"type\":\"decision\",\"id\":%ld}\n", ids[next_random() % (uint64_t)n]);
        } else if (is_type(line, "quit")) {
            break;
        }
        fflush(stdout);
    }
    free(line);
    return 0;
}
