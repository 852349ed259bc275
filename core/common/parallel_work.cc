#include "core/common/parallel_work.h"

namespace deniable {

void RunPieces(const ParallelFor& parallel, int count, const std::function<void(int index)>& piece) {
  if (count <= 0) return;
  if (parallel && count > 1) {
    parallel(count, piece);
    return;
  }
  for (int index = 0; index < count; ++index) piece(index);
}

}  // namespace deniable
