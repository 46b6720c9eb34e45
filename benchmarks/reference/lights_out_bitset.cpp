// Reference point for benchmarks/solve_large.py: the classic compiled way to solve a
// large Lights Out board.  Light chasing with std::bitset rows (the first row's clicks
// as unknowns, each cell's click an affine form over them), then Gauss-Jordan
// elimination of the last row's C x C system: O(n^3 / 64) word operations.
// Reads an R x C board of '0'/'1' characters (one row per line) from the file named
// on the command line, writes the number of clicks, and verifies the answer.
#include <bitset>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

constexpr int MAXC = 1024;  // unknowns + constant bit
using Form = std::bitset<MAXC + 1>;

int main(int argc, char** argv) {
    if (argc != 2) { std::cerr << "usage: lights_out_bitset BOARD\n"; return 2; }
    std::ifstream in(argv[1]);
    std::vector<std::string> rows;
    for (std::string line; std::getline(in, line);) if (!line.empty()) rows.push_back(line);
    const int R = rows.size(), C = rows[0].size();
    if (C > MAXC) { std::cerr << "too wide\n"; return 2; }
    // forms[j]: click at (i, j) as a form; bit C is the constant.
    std::vector<Form> above(C), cur(C), nxt(C);
    for (int j = 0; j < C; ++j) cur[j].set(j);
    for (int i = 0; i < R; ++i) {
        for (int j = 0; j < C; ++j) {
            Form f = cur[j] ^ above[j];
            if (j > 0) f ^= cur[j - 1];
            if (j + 1 < C) f ^= cur[j + 1];
            if (rows[i][j] == '1') f.flip(C);
            nxt[j] = f;
        }
        above.swap(cur);
        cur.swap(nxt);
    }
    // cur: the virtual row below the board must be all zero.
    std::vector<Form>& m = cur;
    std::vector<int> where(C, -1);
    int rank = 0;
    for (int col = 0; col < C && rank < C; ++col) {
        int pick = -1;
        for (int r = rank; r < C; ++r) if (m[r][col]) { pick = r; break; }
        if (pick < 0) continue;
        std::swap(m[pick], m[rank]);
        for (int r = 0; r < C; ++r) if (r != rank && m[r][col]) m[r] ^= m[rank];
        where[col] = rank++;
    }
    for (int r = rank; r < C; ++r) if (m[r][C]) { std::puts("unsolvable"); return 1; }
    std::vector<char> first(C, 0);
    for (int col = 0; col < C; ++col) if (where[col] >= 0) first[col] = m[where[col]][C];
    // Chase the concrete clicks and replay them.
    std::vector<std::vector<char>> x(R, std::vector<char>(C, 0));
    x[0] = first;
    for (int i = 0; i + 1 < R; ++i)
        for (int j = 0; j < C; ++j) {
            char v = (rows[i][j] == '1') ^ x[i][j];
            if (j > 0) v ^= x[i][j - 1];
            if (j + 1 < C) v ^= x[i][j + 1];
            if (i > 0) v ^= x[i - 1][j];
            x[i + 1][j] = v;
        }
    long clicks = 0;
    for (int i = 0; i < R; ++i)
        for (int j = 0; j < C; ++j) {
            char v = (rows[i][j] == '1') ^ x[i][j];
            if (j > 0) v ^= x[i][j - 1];
            if (j + 1 < C) v ^= x[i][j + 1];
            if (i > 0) v ^= x[i - 1][j];
            if (i + 1 < R) v ^= x[i + 1][j];
            if (v) { std::puts("replay failed"); return 3; }
            clicks += x[i][j];
        }
    std::printf("%ld\n", clicks);
    return 0;
}
