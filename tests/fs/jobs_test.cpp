// SPDX-License-Identifier: MIT
// fs::ordered_jobs (fs/jobs.hpp): work on several threads, completions in submission order,
// the first failure in that order and nothing after it.
#include "support/test.hpp"  // the umbrella headers (the ASan suite builds against single_include/)

#include <algorithm>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace fs = clawport::fs;

TEST_CASE("ordered_jobs: completions run in submission order, interleaved with `then`") {
  for (const unsigned jobs : {1u, 2u, 4u}) {
    CAPTURE(jobs);
    std::vector<int> order;
    std::vector<int> results(300, -1);
    {
      fs::ordered_jobs pool(jobs, 8);
      for (int i = 0; i < 300; ++i) {
        pool.submit(
            [&results, i](unsigned) {
              // Uneven work, so later items often finish first.
              volatile unsigned spin = 0;
              for (int k = 0; k < (i % 7) * 2000; ++k) spin = spin + 1;
              results[static_cast<std::size_t>(i)] = i * 2;
            },
            [&order, &results, i](std::exception_ptr failure) {
              CHECK(!failure);
              CHECK(results[static_cast<std::size_t>(i)] == i * 2);
              order.push_back(i);
            });
        if (i % 50 == 0) pool.then([&order, i] { order.push_back(-i - 1); });
      }
      pool.finish();
      CHECK(pool.pending() == 0);
    }
    std::vector<int> expected;
    for (int i = 0; i < 300; ++i) {
      expected.push_back(i);
      if (i % 50 == 0) expected.push_back(-i - 1);
    }
    CHECK(order == expected);
  }
}

TEST_CASE("ordered_jobs: the first failure in order is thrown; nothing after it completes") {
  for (const unsigned jobs : {1u, 3u}) {
    CAPTURE(jobs);
    std::vector<int> completed;
    std::string thrown;
    try {
      fs::ordered_jobs pool(jobs, 4);
      for (int i = 0; i < 40; ++i) {
        pool.submit(
            [i](unsigned) {
              if (i == 11 || i == 23) throw std::runtime_error("item " + std::to_string(i));
            },
            [&completed, i](std::exception_ptr failure) {
              if (failure) std::rethrow_exception(failure);
              completed.push_back(i);
            });
      }
      pool.finish();
    } catch (const std::runtime_error& e) {
      thrown = e.what();
    }
    CHECK(thrown == "item 11");
    REQUIRE(completed.size() == 11);
    CHECK(completed.back() == 10);
  }
}

TEST_CASE("usable_jobs: only a policy that declares itself thread-safe gets threads") {
  CHECK(fs::usable_jobs<fs::posix>(4) == 4);
  CHECK(fs::usable_jobs<fs::posix>(0) == 1);
  CHECK(fs::usable_jobs<fs::memory>(4) == 1);
  CHECK(fs::usable_jobs<fs::faulty<fs::memory>>(4) == 4);
}

// Review B4: a completion that throws something other than a clawport::error (bad_alloc, a
// crash test's exception) leaves the run while a worker may still read through the caller's
// handles; the exception must not reach the caller before what is running has finished.
TEST_CASE("ordered_jobs: a throwing completion waits for the items still running") {
  std::atomic<bool> started{false};
  std::atomic<bool> completing{false};
  std::atomic<bool> finished{false};
  const auto wait_for = [](const std::atomic<bool>& flag) {
    // Bounded, so a broken pool fails the test instead of hanging it.
    for (int i = 0; i < 5000 && !flag; ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  };
  fs::ordered_jobs pool(2, 64);
  pool.submit([](unsigned) {},
              [&completing](std::exception_ptr) {
                completing = true;
                throw std::runtime_error("not a clawport::error");
              });
  pool.submit(
      [&](unsigned) {
        started = true;
        wait_for(completing);
        std::this_thread::sleep_for(std::chrono::milliseconds(20));  // still running on throw
        finished = true;
      },
      [](std::exception_ptr) {});
  // Enough queued work to wake the worker, which takes the items in order.
  for (int i = 0; i < 4; ++i) pool.submit([](unsigned) {}, [](std::exception_ptr) {});
  wait_for(started);
  REQUIRE(started);
  std::string thrown;
  try {
    pool.finish();
  } catch (const std::runtime_error& e) {
    thrown = e.what();
    CHECK(finished);  // checked before the pool's destructor joins the worker
  }
  CHECK(thrown == "not a clawport::error");
}

// Review B3: records queued by `then` behind an item no thread runs yet grew without bound
// (verify's memory grew with the directories of a bundle). `then` keeps to the window too.
TEST_CASE("ordered_jobs: `then` keeps the pending items within the window") {
  for (const unsigned jobs : {2u, 3u}) {
    CAPTURE(jobs);
    std::atomic<bool> released{false};
    std::vector<int> order;
    std::size_t most = 0;
    {
      fs::ordered_jobs pool(jobs, 4);
      pool.submit(
          [&released](unsigned) {
            // Unfinished while the records are queued; bounded, as the caller may wait for it.
            for (int i = 0; i < 100 && !released; ++i)
              std::this_thread::sleep_for(std::chrono::milliseconds(1));
          },
          [&order](std::exception_ptr failure) {
            CHECK(!failure);
            order.push_back(0);
          });
      for (int i = 1; i <= 40; ++i) {
        pool.then([&order, i] { order.push_back(i); });
        most = std::max(most, pool.pending());
      }
      released = true;
      pool.finish();
    }
    CHECK(most <= 4);
    REQUIRE(order.size() == 41);
    for (int i = 0; i <= 40; ++i) CHECK(order[static_cast<std::size_t>(i)] == i);
  }
}

// Review B1: the window of a walk with jobs is what the descriptor limit affords.
TEST_CASE("jobs_window: 16 items per job, within the descriptor budget; default_jobs 1-8") {
  for (const unsigned jobs : {1u, 4u, 256u}) {
    for (const std::size_t per_item : {std::size_t(2), std::size_t(4)}) {
      CAPTURE(jobs);
      CAPTURE(per_item);
      const std::size_t window = fs::jobs_window(jobs, per_item);
      CHECK(window >= 1);
      CHECK(window <= 16 * std::size_t(jobs));
      if (fs::descriptor_budget() >= per_item) CHECK(window * per_item <= fs::descriptor_budget());
    }
  }
  CHECK(fs::default_jobs() >= 1);
  CHECK(fs::default_jobs() <= 8);
}
